"""The SMT model of make_select_private_candidate's map: proved on the real code, and refuted
on copies whose map is edited to be unsound (epsilon not doubled; read at d_in / 2)."""

from __future__ import annotations

import math

import pytest

import certdp.prelude as dp
from certdp.combinators.select_private_candidate import smt_model
from certdp.contracts.smt_code import F64_SAMPLES

from .edited import prove_edited

PATH = "combinators/select_private_candidate/make_select_private_candidate.py"
NAME = "make_select_private_candidate"


@pytest.fixture(autouse=True)
def _features():
    dp.enable_features("contrib")
    yield
    dp.disable_features("contrib")


# `certdp prove make_select_private_candidate` on an unedited copy: the full re-proof is `certdp prove`'s; `make test` checks that its committed
# result is current and proved (test_prove.py) and that a stale one fails `certdp audit
# --strict` (test_stale_result_fails_the_audit.py)
@pytest.mark.slow
def test_the_model_is_proved_on_the_code(tmp_path):
    summary = prove_edited(tmp_path, NAME, {})
    assert summary["status"] == "proved", summary


@pytest.mark.parametrize(
    "old, new",
    [
        # the inner epsilon, not doubled
        ('inf_cast(2 * Fraction(epsilon), "f64")', 'inf_cast(Fraction(epsilon), "f64")'),
        # doubled, but read at half the distance
        ("doubled(measurement.map(d_in))", "doubled(measurement.map(d_in / 2))"),
    ],
)
def test_an_unsound_map_is_refuted(tmp_path, old, new):
    summary = prove_edited(tmp_path, NAME, {PATH: [(old, new)]})
    assert summary["status"] == "counterexample", summary
    examples = [refuted["example"] for refuted in summary["counterexamples"]]
    assert any("raised" not in example for example in examples), examples


def test_the_code_map_is_twice_the_inner_loss_on_the_samples():
    for epsilon in F64_SAMPLES:
        value = smt_model.code_map(epsilon, 1)
        expected = 2 * epsilon
        assert value == expected or (math.isinf(expected) and value == math.inf)
