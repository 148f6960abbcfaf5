"""The adaptive compositor's SMT model: the map equals the model on random budgets, and unsound
edits of the code (a budget check that accepts everything, a charge that never happens, a map
that forgets budgets) are refuted by ``certdp prove``'s obligations on an edited copy."""

import math
import struct

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.combinators.composition.smt_model import composed_loss
from certdp.contracts.smt import float_of
from certdp.prove.engine import solve

_F64 = z3.Float64()
_BUDGETS = st.one_of(
    st.floats(min_value=0.0, allow_nan=False),
    st.sampled_from([0.0, 5e-324, 1e-300, 0.1, 1.0, 1e308, 1.7976931348623157e308, math.inf]),
)
_FILE = "combinators/adaptive_composition/make_adaptive_composition.py"


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")
    yield
    dp.disable_features("contrib")


def _bits(value: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", value))[0]


@given(st.lists(_BUDGETS, min_size=1, max_size=4), st.booleans())
def test_the_map_is_the_model(budgets, zcdp):
    measure = dp.zero_concentrated_divergence() if zcdp else dp.max_divergence()
    space = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")
    code = dp.c.make_adaptive_composition(*space, measure, 1.0, budgets).map(0.5)
    model, _ = composed_loss([z3.FPVal(b, _F64) for b in budgets], _F64)
    assert _bits(float_of(model)) == _bits(code)


# every obligation of make_adaptive_composition: the full re-proof is `certdp prove`'s; `make test` checks that its committed
# result is current and proved (test_prove.py) and that a stale one fails `certdp audit
# --strict` (test_stale_result_fails_the_audit.py)
@pytest.mark.slow
def test_the_real_compositor_is_proved_at_every_instance():
    from certdp.combinators.adaptive_composition.smt_model import obligations

    for obligation in obligations():
        assert solve(obligation, 60)["status"] == "proved", obligation.claim


@pytest.mark.parametrize(
    "old, new, select",
    [
        (
            "if not _within(output_measure, loss, budgets[index]):",
            "if False and _within(output_measure, loss, budgets[index]):",
            "real compositor",
        ),
        (
            "spent[0] = index + 1  # charged before anything is released  # label: charge\n",
            "spent[0] = index  # label: charge\n",
            "real compositor",
        ),
        (
            'total = compose_losses(output_measure, budgets, MakeMeasurementError, "d_mids")',
            'total = compose_losses(output_measure, budgets[:1], MakeMeasurementError, "d_mids")',
            "real make_adaptive_composition",
        ),
    ],
    ids=["accepts-everything", "never-charges", "forgets-budgets"],
)
def test_an_unsound_edit_is_refuted(tmp_path, old, new, select):
    from .edited import prove_edited

    summary = prove_edited(
        tmp_path, "make_adaptive_composition", {_FILE: [(old, new)]}, select=select
    )
    assert summary["status"] == "counterexample", summary
