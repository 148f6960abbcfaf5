"""Referee front (s7): the Context's pre-check compares a NumPy loss as the compositor does."""

from __future__ import annotations

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.combinators._context.context import Context

ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")
PURE = dp.max_divergence()


@pytest.fixture(autouse=True)
def _features():
    dp.enable_features("contrib", "honest-but-curious")
    yield
    dp.disable_features("contrib", "honest-but-curious")


def _stub(loss):
    return dp.Measurement(ATOM[0], lambda x: x, ATOM[1], PURE, lambda d_in: loss)


@pytest.mark.parametrize("loss", [np.float64(0.5), np.float32(0.5), np.int64(0)])
def test_context_precheck_accepts_a_numpy_loss_the_compositor_accepts(loss):
    raw = dp.c.make_adaptive_composition(*ATOM, PURE, 1.0, [0.5, 0.5])(0.0)
    assert raw(_stub(loss)) == 0.0
    accountant = dp.c.make_adaptive_composition(*ATOM, PURE, 1.0, [0.5, 0.5])
    context = Context(accountant, accountant(0.0), 1.0, [0.5, 0.5])
    assert context(_stub(loss)) == 0.0
    assert context.d_mids_consumed == [0.5]


@pytest.mark.parametrize("loss", [np.float64(0.75), (np.float64(0.5), np.float64(0.5))])
def test_context_precheck_refuses_a_numpy_loss_the_compositor_refuses(loss):
    accountant = dp.c.make_adaptive_composition(*ATOM, PURE, 1.0, [0.5, 0.5])
    context = Context(accountant, accountant(0.0), 1.0, [0.5, 0.5])
    with pytest.raises(dp.OpenDPException) as error:
        context(_stub(loss))
    assert error.value.parameter == "query"
