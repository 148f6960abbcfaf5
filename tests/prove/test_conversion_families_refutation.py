"""The conversion models probe the inner map with several families (linear and quadratic
losses, a delta growing with d_in) at a dense set of d_in (referee 18): a conversion that reads
the inner map at d_in = 1 and scales it linearly, one that reads delta at d_in = 1, and one
that halves d_in only strictly between 2 and 1000 are each refuted."""

from __future__ import annotations

import pytest

import certdp.prelude as dp
from certdp.combinators._support.conversion_smt import CONVERSION_D_INS

from .edited import prove_edited

OLD = "return convert(measurement.map(d_in))  # label: inner-map"

# Reads the inner map at d_in = 1 and scales the loss by d_in (exact, so no exception at
# 10**400): unsound for an inner map that is not linear (a Gaussian's rho grows as d_in**2).
LINEAR = (
    "_e = measurement.map(1)\n"
    "        return convert(_e if _e == math.inf else Fraction(_e) * Fraction(d_in))"
    "  # label: inner-map"
)

PURE = "combinators/pureDP_to_zCDP/make_pureDP_to_zCDP.py"
ZCDP = "combinators/zCDP_to_approxDP/make_zCDP_to_approxDP.py"
FIXD = "combinators/fix_delta/make_fix_delta.py"
FIXED = "combinators/fixed_approxDP_to_approxDP/make_fixed_approxDP_to_approxDP.py"

# modules with no `math`/`Fraction` import get them through __import__
PORTABLE = LINEAR.replace("Fraction(", "__import__('fractions').Fraction(").replace(
    "math.inf", "float('inf')"
)


@pytest.fixture(autouse=True)
def _features():
    dp.enable_features("contrib")
    yield
    dp.disable_features("contrib")


def test_the_checked_d_ins_are_dense_among_small_integers():
    assert {1, 2, 3, 7, 10, 100, 1000} <= set(CONVERSION_D_INS)


def test_pure_to_zcdp_refutes_a_conversion_that_reads_the_inner_map_at_1(tmp_path):
    summary = prove_edited(
        tmp_path, "make_pureDP_to_zCDP", {PURE: [(OLD, LINEAR)]}, select="real make_pureDP"
    )
    assert summary["status"] == "counterexample", summary


def test_zcdp_to_approx_refutes_linear_scaling_of_rho(tmp_path):
    summary = prove_edited(
        tmp_path,
        "make_zCDP_to_approxDP",
        {ZCDP: [(OLD, PORTABLE)]},
        select="inner map d_in -> 0.5 * d_in,",
    )
    assert summary["status"] == "counterexample", summary


def test_fixed_approx_refutes_delta_read_at_d_in_1(tmp_path):
    edit = "return convert((measurement.map(d_in)[0], measurement.map(1)[1]))  # label: inner-map"
    summary = prove_edited(
        tmp_path,
        "make_fixed_approxDP_to_approxDP",
        {FIXED: [(OLD, edit)]},
        select="over the pair (1.0, 0.5)",
    )
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize(
    "name, path, select",
    [
        ("make_pureDP_to_zCDP", PURE, "real make_pureDP"),
        ("make_zCDP_to_approxDP", ZCDP, "inner map d_in -> 0.5 * d_in,"),
        ("make_fixed_approxDP_to_approxDP", FIXED, "over the pair (1.0, 0.5)"),
        ("make_fix_delta", FIXD, "profile cdp rho=0.5,"),
    ],
)
def test_halving_d_in_only_between_checked_values_is_refuted(tmp_path, name, path, select):
    edit = "return convert(measurement.map(d_in / 2 if 2 < d_in < 1000 else d_in))"
    summary = prove_edited(
        tmp_path, name, {path: [(OLD, edit + "  # label: inner-map")]}, select=select
    )
    assert summary["status"] == "counterexample", summary
