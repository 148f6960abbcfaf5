"""The pair obligations of make_zCDP_to_approxDP and make_fix_delta under
Approximate(ZeroConcentratedDivergence) / Approximate(SmoothedMaxDivergence): proved on the real
code, and unsound edits of the new code path (the inner delta dropped, the remaining delta
rounded up or not reduced by the inner delta) are refuted by `certdp prove`'s own step."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import certdp.prelude as dp
from certdp.combinators.fix_delta import smt_model as fix_model
from certdp.combinators.zCDP_to_approxDP import smt_model as zcdp_model
from certdp.prove.solver import solve

from .edited import prove_edited

ZCDP = "combinators/zCDP_to_approxDP/make_zCDP_to_approxDP.py"
FIXD = "combinators/fix_delta/make_fix_delta.py"
REMAINING = "remaining = neg_inf_cast(Fraction(delta) - Fraction(fixed))  # label: remaining"


@pytest.fixture(autouse=True)
def _features():
    dp.enable_features("contrib")
    yield
    dp.disable_features("contrib")


def test_the_pair_obligations_are_proved_on_the_code():
    for rho in (0.5, math.inf):
        assert solve(zcdp_model.pair_instance(rho), 120)["status"] == "proved", rho
    for name in ("cdp rho=0.5 * d_in**2", "step at 1 to RU(delta - fixed)"):
        assert solve(fix_model.pair_instance(name), 120)["status"] == "proved", name


def test_the_pair_models_read_the_code():
    """The pair families hold what the obligations say: the inner delta grows with d_in, and the
    step's low value is the difference rounded up (above it exactly when it is not a float)."""

    def zero(d_in):
        return dp.PrivacyProfile(lambda e: 0.0)

    assert fix_model.pair_code_maps(zero, 1e-7, 1e-6, 2) == ((0.0, 1e-6),) * 2
    # at d_in = 10 the inner delta is 1e-6, not below the total: refused (None), map and closure
    assert fix_model.pair_code_maps(zero, 1e-7, 1e-6, 10) == (None, None)
    step = fix_model.PAIR_PROFILES["step at 1 to RU(delta - fixed)"](1, 0.5, 5e-324)
    assert Fraction(step.delta(1.0)) > Fraction(0.5) - Fraction(5e-324)
    assert step.delta(0.5) == 1.0


def test_a_map_model_that_lowers_the_pair_delta_is_refuted():
    def dropped(built, d_in):
        value = built._map(d_in)
        return ((value[0], 0.0),)

    outcome = solve(zcdp_model.pair_instance(0.5, map_of=dropped), 60)
    assert outcome["status"] == "counterexample"
    assert outcome["example"]["epsilon"] == "None"  # the pair's own delta case


def test_dropping_the_inner_delta_in_the_conversion_is_refuted(tmp_path):
    edit = {
        ZCDP: [("return curve(rho), delta  # label: pair", "return curve(rho), 0.0  # label: pair")]
    }
    summary = prove_edited(
        tmp_path, "make_zCDP_to_approxDP", edit, select="Approximate(ZeroConcentratedDivergence)"
    )
    assert summary["status"] == "counterexample", summary


def test_reading_the_inner_delta_at_another_d_in_is_refuted(tmp_path):
    edit = {
        ZCDP: [
            (
                "return curve(rho), delta  # label: pair",
                "return curve(rho), measurement.map(1)[1]  # label: pair",
            )
        ]
    }
    summary = prove_edited(
        tmp_path, "make_zCDP_to_approxDP", edit, select="Approximate(ZeroConcentratedDivergence)"
    )
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize(
    "new",
    [
        # the threshold's delta dropped: the profile read at the whole delta
        "remaining = delta  # label: remaining",
        # the difference rounded up
        "remaining = inf_cast(Fraction(delta) - Fraction(fixed))  # label: remaining",
    ],
    ids=["inner delta dropped", "difference rounded up"],
)
def test_an_unsound_remaining_delta_in_fix_delta_is_refuted(tmp_path, new):
    edits = [(REMAINING, new)]
    if "inf_cast" in new:
        edits.append(
            (
                "from certdp.numeric import neg_inf_cast",
                "from certdp.numeric import inf_cast, neg_inf_cast",
            )
        )
    summary = prove_edited(
        tmp_path, "make_fix_delta", {FIXD: edits}, select="step at 1 to RU(delta - fixed)"
    )
    assert summary["status"] == "counterexample", summary
    example = summary["counterexamples"][0]["example"]
    assert "raised" not in example and example["code map"] != "None"
