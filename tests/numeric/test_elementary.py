"""inf_exp, inf_ln_1p and the base-2 logarithms against exact values (issue 18 part 2).

The reference is mpmath at 3000 bits; a comparison of a float ``r`` with the exact value ``v``
is accepted only when ``|r - v|`` exceeds ``2^-2900 |v|`` (far beyond mpmath's error at that
precision), so each comparison below is decided, not approximate. Each point listed here was
chosen where a rounding below the truth was possible: tiny and subnormal arguments (the
previous mpmath-interval code returned 1.0 < exp(x) for x = 2.703422818511513e-82 and the other
``OLD_FAILURES``), the overflow edge ln(MAX) and the subnormal edge of the result. The points
away from ``OLD_FAILURES`` (and every ``ln(1 + x)`` point) were right in the previous code too:
they guard the new code, they do not reproduce an old failure.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from certdp.core.errors import ArithmeticOverflowError, FailedCastError
from certdp.numeric import inf_exp, inf_ln_1p, inf_log2, neg_inf_log2, round_enclosure
from certdp.numeric.elementary import _exp_enclosure, _ln_enclosure

BITS = 3000
TINY = 5e-324
MAX = float(np.finfo(np.float64).max)
LN_MAX = 709.782712893384  # ln(MAX) = 709.78271289338399673...


def _compare(r: float, v: mpmath.mpf) -> int:
    """The sign of ``r - v``, decided with a margin of 2^-2900 |v|."""
    with mpmath.workprec(BITS):
        gap = mpmath.mpf(r) - v
        margin = abs(v) * mpmath.mpf(2) ** -2900
        if abs(gap) <= margin:
            raise AssertionError(f"{r!r} is too close to the exact value to decide")
        return 1 if gap > 0 else -1


def _exp(x: float) -> mpmath.mpf:
    with mpmath.workprec(BITS):
        return mpmath.exp(mpmath.mpf(x))


def _ln1p(x: float) -> mpmath.mpf:
    with mpmath.workprec(BITS):
        return mpmath.log1p(mpmath.mpf(x))


def _log2(x: float) -> mpmath.mpf:
    with mpmath.workprec(BITS):
        return mpmath.log(mpmath.mpf(x)) / mpmath.log(2)


def assert_smallest_above(r: float, v: mpmath.mpf) -> None:
    """``r`` is the smallest f64 ``>= v``: ``r > v`` and the float below ``r`` is ``< v``."""
    assert _compare(r, v) > 0
    below = math.nextafter(r, -math.inf)
    assert _compare(below, v) < 0


#: Tiny x > 0 at which the previous code (mpmath intervals at 128, 256, 512, 1024 bits) returned
#: 1.0 < exp(x): one band below each working precision, the last one subnormal.
OLD_FAILURES = [
    1.6512057703272124e-43,  # ~2^-142
    1.2520567974009017e-43,  # ~2^-143
    2.703422818511513e-82,  # ~2^-270, the point
    3.840938535460484e-159,  # ~2^-526
    2.33375721827e-313,  # ~2^-1038, subnormal
    1.83731793576e-313,  # ~2^-1039, subnormal
]

EXP_POINTS = [
    *OLD_FAILURES,
    -2.703422818511513e-82,
    TINY,
    -TINY,
    3 * TINY,
    2.2250738585072014e-308,  # smallest normal
    1e-300,
    -1e-300,
    2.0**-53,
    2.0**-52,
    -(2.0**-54),
    1e-17,
    -1e-17,
    0.5,
    -0.5,
    1.0,
    0.6931471805599453,  # ~ln 2
    -745.0,
    -745.1332191019411,  # exp near 2^-1075, the half-way point below the smallest subnormal
    -744.4400719213812,  # exp near 2^-1074
    -708.3964185322641,  # exp near the smallest normal
    -708.4,
    -799.9999999999999,
    709.0,
    709.7827128933839,  # just below ln(MAX)
    LN_MAX,
]


@pytest.mark.parametrize("x", EXP_POINTS)
def test_inf_exp_is_the_smallest_float_above(x):
    exact = _exp(x)
    with mpmath.workprec(BITS):
        if exact > MAX:
            with pytest.raises(ArithmeticOverflowError):
                inf_exp(x)
            return
    r = inf_exp(x)
    assert type(r) is float
    if r == TINY and _compare(0.0, exact) < 0:
        assert _compare(r, exact) > 0  # the smallest positive float: nothing lies between
    else:
        assert_smallest_above(r, exact)


def test_inf_exp_of_tiny_positive_arguments_exceeds_one():
    """exp(x) > 1 for every x > 0: the result must be the float after 1 (the regression)."""
    for x in [*OLD_FAILURES, TINY, 1e-200, 2.0**-60]:
        assert inf_exp(x) == math.nextafter(1.0, 2.0)
    for x in [-2.703422818511513e-82, -TINY, -1e-200]:
        assert inf_exp(x) == 1.0


def test_inf_exp_at_the_overflow_edge():
    # the largest float below ln(MAX) and the float after it, which lies above ln(MAX)
    below, above = 709.782712893384, math.nextafter(709.782712893384, 800)
    assert inf_exp(below) == 1.7976931348622734e308
    assert_smallest_above(inf_exp(below), _exp(below))
    assert _compare(MAX, _exp(above)) < 0
    with pytest.raises(ArithmeticOverflowError):
        inf_exp(above)
    for x in [710.0, 800.0, 1e300]:
        with pytest.raises(ArithmeticOverflowError):
            inf_exp(x)


def test_inf_exp_at_the_subnormal_edge():
    for x in [-1e300, -900.0, -800.5, -746.0, -745.2]:
        assert inf_exp(x) == TINY
        assert _compare(TINY, _exp(x)) > 0
    assert inf_exp(0.0) == inf_exp(-0.0) == 1.0


def test_inf_exp_refuses_non_floats():
    for bad in (math.inf, -math.inf, math.nan):
        with pytest.raises(ArithmeticOverflowError):
            inf_exp(bad)
    with pytest.raises(FailedCastError):
        inf_exp(Fraction(1, 3))


LN_POINTS = [
    TINY,
    -TINY,
    3 * TINY,
    2.703422818511513e-82,
    -2.703422818511513e-82,
    1e-300,
    -1e-300,
    2.0**-53,
    -(2.0**-53),
    1e-17,
    -0.25,
    -0.5,
    -0.9900990099009901,  # -1/1.01, the largest u cdp_delta passes
    math.nextafter(-1.0, 0.0),  # the least argument above -1
    0.5,
    1.0,
    3.0,
    1e10,
    1e300,
    MAX,
]


@pytest.mark.parametrize("x", LN_POINTS)
def test_inf_ln_1p_is_the_smallest_float_above(x):
    r = inf_ln_1p(x)
    assert type(r) is float
    assert_smallest_above(r, _ln1p(x))


def test_inf_ln_1p_domain():
    assert inf_ln_1p(0.0) == 0.0
    for bad in (-1.0, -2.0, -MAX):
        with pytest.raises(ArithmeticOverflowError, match="x > -1"):
            inf_ln_1p(bad)


@pytest.mark.parametrize(
    "x", [0.1, 3.0, 3 * TINY, MAX, math.nextafter(1.0, 2.0), math.nextafter(1.0, 0.0)]
)
def test_log2_both_directions(x):
    exact = _log2(x)
    up, down = inf_log2(x), neg_inf_log2(x)
    assert_smallest_above(up, exact)
    assert _compare(down, exact) < 0 and _compare(math.nextafter(down, math.inf), exact) > 0


def test_enclosures_contain_the_exact_value():
    """The proven enclosures, read directly: lo <= v <= hi, and they narrow."""
    for x in [Fraction(-745), Fraction(1, 3), Fraction(2703422818511513, 10**97), Fraction(709)]:
        lo, hi = _exp_enclosure(x, 64)
        with mpmath.workprec(BITS):
            exact = mpmath.exp(mpmath.mpf(x.numerator) / x.denominator)
            assert mpmath.mpf(lo.numerator) / lo.denominator <= exact
            assert exact <= mpmath.mpf(hi.numerator) / hi.denominator
        lo2, hi2 = _exp_enclosure(x, 256)
        assert hi2 - lo2 <= hi - lo
    for q in [Fraction(1, 10**300), Fraction(3, 2), Fraction(10**300)]:
        lo, hi = _ln_enclosure(q, 64)
        with mpmath.workprec(BITS):
            exact = mpmath.log(mpmath.mpf(q.numerator) / q.denominator)
            assert mpmath.mpf(lo.numerator) / lo.denominator <= exact
            assert exact <= mpmath.mpf(hi.numerator) / hi.denominator


def test_round_enclosure_checks_and_refines():
    """The rule refines an enclosure until both ends round alike, and raises beyond MAX."""
    third = Fraction(1, 3)
    calls = []

    def enclose(precision):
        calls.append(precision)
        radius = Fraction(1, 1 << (precision // 4))  # too wide at first
        return third - radius, third + radius

    up = round_enclosure(enclose, "f64", "up")
    assert calls[0] == 64 and calls[-1] > 64
    down = round_enclosure(enclose, "f64", "down")
    assert Fraction(down) < third < Fraction(up) and math.nextafter(down, 1.0) == up
    with pytest.raises(ArithmeticOverflowError):
        round_enclosure(lambda p: (Fraction(2) ** 1024, Fraction(2) ** 1025), "f64", "up")
    # an exact (degenerate) enclosure is returned as it is
    assert round_enclosure(lambda p: (Fraction(1), Fraction(1)), "f64", "up") == 1.0
