"""The four measure conversions read their inner map at their own ``d_in``: their models call
the real converted map at several ``d_in`` over an inner map that depends on ``d_in``
(``combinators/_support/conversion_smt.py``), so a conversion that reads the inner map at
``d_in / 2`` is refuted, at an ordinary ``d_in`` and with the wrong loss (not merely by an
exception)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import certdp.prelude as dp
from certdp.combinators._support.conversion_smt import (
    CONVERSION_D_INS,
    d_in_stub_measurement,
    linear,
)

from .edited import prove_edited

OLD = "return convert(measurement.map(d_in))  # label: inner-map"
HALF = "return convert(measurement.map(d_in / 2))  # label: inner-map"


@pytest.fixture(autouse=True)
def _features():
    dp.enable_features("contrib")
    yield
    dp.disable_features("contrib")


@pytest.mark.parametrize(
    "name, path, select",
    [
        ("make_pureDP_to_zCDP", "combinators/pureDP_to_zCDP/make_pureDP_to_zCDP.py",
         "real make_pureDP"),
        ("make_zCDP_to_approxDP", "combinators/zCDP_to_approxDP/make_zCDP_to_approxDP.py",
         "at rho=0.5, d_in = 1,"),
        ("make_zCDP_to_approxDP", "combinators/zCDP_to_approxDP/make_zCDP_to_approxDP.py",
         "inner map d_in -> 0.5 * d_in,"),
        ("make_fix_delta", "combinators/fix_delta/make_fix_delta.py", "profile cdp rho=0.5,"),
        ("make_fix_delta", "combinators/fix_delta/make_fix_delta.py", "profile step at 1,"),
        ("make_fixed_approxDP_to_approxDP",
         "combinators/fixed_approxDP_to_approxDP/make_fixed_approxDP_to_approxDP.py",
         "over the pair (1.0, 0.5)"),
    ],
)  # fmt: skip
def test_reading_the_inner_map_at_half_d_in_is_refuted(tmp_path, name, path, select):
    summary = prove_edited(tmp_path, name, {path: [(OLD, HALF)]}, select=select)
    assert summary["status"] == "counterexample", summary
    examples = [refuted["example"] for refuted in summary["counterexamples"]]
    # refuted with a value, at d_in = 1 (the first d_in checked), on the closure the proof
    # cites (the evaluator's map computes convert(inner.map(d_in)) without the closure)
    assert any(
        example.get("d_in") == "1" and "raised" not in example and example.get("path") in
        (None, "closure")
        for example in examples
    ), examples  # fmt: skip


def test_an_unedited_conversion_is_proved_at_every_d_in(tmp_path):
    summary = prove_edited(
        tmp_path, "make_zCDP_to_approxDP", {}, select="inner map d_in -> 0.5 * d_in,"
    )
    assert summary["status"] == "proved", summary


def test_the_inner_stub_depends_on_d_in():
    seen = []
    inner = d_in_stub_measurement(lambda d_in: linear(0.5, d_in), dp.max_divergence())
    for d_in in CONVERSION_D_INS:
        seen.append(inner.map(d_in))
    at = dict(zip(CONVERSION_D_INS, seen))
    assert at[1] == 0.5 and at[2] == 1 and at[0.5] == Fraction(1, 4) and at[7] == Fraction(7, 2)
    assert at[Fraction(1, 3)] == Fraction(1, 6) and at[10**400] == Fraction(10**400, 2)
    assert len(set(seen)) == len(seen)
    assert linear(math.inf, 10**400) == math.inf


def test_the_pure_to_zcdp_map_takes_an_exact_epsilon_beyond_f64():
    """An exact inner epsilon beyond the f64 range gives rho = +inf (it used to raise an
    untyped OverflowError converting it to a float)."""
    inner = d_in_stub_measurement(lambda d_in: linear(0.5, d_in), dp.max_divergence())
    converted = dp.c.make_pureDP_to_zCDP(inner)
    assert converted.map(10**400) == math.inf
    assert converted.map(Fraction(1, 3)) == pytest.approx(1 / 72, rel=1e-15)
    assert converted.map(Fraction(1, 3)) >= Fraction(1, 72)


def test_the_superlinear_families():
    from certdp.combinators._support.conversion_smt import grown_delta, quadratic

    assert quadratic(0.5, 1) == 0.5 and quadratic(0.5, 3) == Fraction(9, 2)
    assert quadratic(0.5, Fraction(1, 3)) == Fraction(1, 18)
    assert quadratic(math.inf, 10**400) == math.inf
    assert grown_delta(0.25, 1) == 0.25 and grown_delta(0.25, 2) == Fraction(1, 2)
    assert grown_delta(0.25, 1000) == 1 and grown_delta(0.25, 0.5) == Fraction(1, 8)
