"""Referee front (s7): the measure conversions record themselves as evaluator nodes, so ``map``
computes ``convert(inner.map(d))`` without calling the privacy-map closure their proofs cite.
Each model now also calls that closure directly; an unsound edit of the closure is refuted.

Each case proves one obligation of its model that judges the closure's soundness (``select``;
it is proved on the unedited code), and the edit is refuted there.  Others are left out:
make_pureDP_to_zCDP's rounding lemmas do not run the closure, and each of
make_fixed_approxDP_to_approxDP's eight pairs refutes the edit, so one of them shows it."""

from __future__ import annotations

import pytest

import certdp.prelude as dp

from .edited import prove_edited

OLD = "return convert(measurement.map(d_in))  # label: inner-map"


@pytest.fixture(autouse=True)
def _features():
    dp.enable_features("contrib")
    yield
    dp.disable_features("contrib")


@pytest.mark.parametrize(
    "name, path, new, select",
    [
        (
            "make_pureDP_to_zCDP",
            "combinators/pureDP_to_zCDP/make_pureDP_to_zCDP.py",
            "return 0.0  # label: inner-map",
            "closure called directly at every d_in",
        ),
        (
            "make_zCDP_to_approxDP",
            "combinators/zCDP_to_approxDP/make_zCDP_to_approxDP.py",
            "return convert(measurement.map(d_in) / 4)  # label: inner-map",
            "at rho=1.0,",
        ),
        (
            "make_fix_delta",
            "combinators/fix_delta/make_fix_delta.py",
            "return (0.0, convert(measurement.map(d_in))[1])  # label: inner-map",
            "profile cdp rho=0.5,",
        ),
        (
            "make_fixed_approxDP_to_approxDP",
            "combinators/fixed_approxDP_to_approxDP/make_fixed_approxDP_to_approxDP.py",
            "return convert((0.0, 0.0))  # label: inner-map",
            "over the pair (1.0, 1e-06) ",
        ),
    ],
)
def test_an_unsound_privacy_map_closure_is_refuted(tmp_path, name, path, new, select):
    summary = prove_edited(tmp_path, name, {path: [(OLD, new)]}, select=select)
    assert summary["status"] == "counterexample", summary
    assert len(summary["instances"]) == len(summary["counterexamples"]) == 1, summary
