"""The delta lemma of the thresholded releases (measurements/_threshold/threshold_delta.tex):
the exact survival probability, computed here independently with sympy at high precision,
is never above the returned float, and the returned float is its rounding up."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from certdp.core.errors import FailedMapError
from certdp.measurements._threshold import laplace_tail_enclosure, threshold_delta


def exact_tail(scale: Fraction, distance: int) -> mpmath.mpf:
    """P[Z >= distance] for Z ~ DLap(0, scale) at 80 digits, summed term by term from the mass
    function c u^|z| (not from the closed form the code uses) until the rest, a geometric
    series, is below 10^-70 of the sum."""
    with mpmath.workdps(80):
        b = mpmath.mpf(scale.numerator) / scale.denominator
        u = mpmath.exp(-1 / b)
        c = (1 - u) / (1 + u)
        total = mpmath.mpf(0)
        z = distance
        while True:
            term = c * u**z
            total += term
            z += 1
            if term / (1 - u) < total * mpmath.mpf(10) ** -70:
                break
        return total


def exact_delta(scale: Fraction, distance: int, l0: int) -> mpmath.mpf:
    with mpmath.workdps(80):
        p = exact_tail(scale, distance)
        return 1 - (1 - p) ** l0


def round_up_f64(value) -> float:
    """The smallest f64 >= value, from an 80-digit value (decided unless within 1e-60)."""
    near = float(value)
    exact = Fraction(mpmath.nstr(value, 75, strip_zeros=False))
    while Fraction(near) < exact:
        near = math.nextafter(near, math.inf)
    while Fraction(math.nextafter(near, -math.inf)) >= exact:
        near = math.nextafter(near, -math.inf)
    return near


CASES = [
    (Fraction(1), 4, 1),  # OpenDP #2922: the key at count 1, threshold 5
    (Fraction(1), 5, 1),
    (Fraction(1), 0, 1),
    (Fraction(5, 2), 12, 4),
    (Fraction(1), 9, 3),
    (Fraction(3, 7), 2, 1000),
    (Fraction(20), 1, 2),
]


@pytest.mark.parametrize("scale, distance, l0", CASES)
def test_delta_is_the_exact_value_rounded_up(scale, distance, l0):
    exact = exact_delta(scale, distance, l0)
    got = threshold_delta(scale, distance, l0)
    assert Fraction(got) >= Fraction(mpmath.nstr(exact, 75, strip_zeros=False))
    assert got == round_up_f64(exact)


def test_the_opendp_2922_example():
    """scale 1, threshold 5, a key at count 1 present on one side only: it survives with
    probability e^-4 / (1 + e^-1) = 1.339 %; OpenDP 0.16 reports 0.4926 % (the tail beyond
    distance 5), certdp at least the exact 1.339 %."""
    exact = exact_delta(Fraction(1), 4, 1)
    assert abs(float(exact) - 0.013389804932698) < 1e-12
    assert Fraction(threshold_delta(Fraction(1), 4, 1)) >= Fraction(
        mpmath.nstr(exact, 75, strip_zeros=False)
    )
    opendp_reported = 0.004925833956035741  # dp.m.make_laplace_threshold(scale=1, threshold=5)
    assert Fraction(opendp_reported) < Fraction(mpmath.nstr(exact, 75, strip_zeros=False))


@given(
    scale=st.fractions(min_value=Fraction(1, 8), max_value=64, max_denominator=64),
    distance=st.integers(0, 200),
    precision=st.sampled_from([64, 128, 256]),
)
def test_tail_enclosure_contains_the_tail(scale, distance, precision):
    lo, hi = laplace_tail_enclosure(scale, distance, precision)
    b = float(scale)
    value = math.exp(-distance / b) / (1 + math.exp(-1 / b))
    assert 0 <= lo <= hi
    assert float(lo) <= value * (1 + 1e-12) and value <= float(hi) * (1 + 1e-12)
    assert hi - lo <= Fraction(1, 1 << 60) * max(Fraction(1), hi)


def test_edges():
    assert threshold_delta(Fraction(1), 3, 0) == 0.0
    # far beyond: delta < 2^-1154, the smallest subnormal is returned
    assert threshold_delta(Fraction(1), 5000, 1) == 5e-324
    # tiny scale, key at the threshold: survives with probability about 1
    assert threshold_delta(Fraction(1, 100000), 0, 2) == 1.0
    with pytest.raises(FailedMapError, match="l0 must be below 2\\^64"):
        threshold_delta(Fraction(1), 3, 1 << 64)
    assert 0 < threshold_delta(Fraction(1), 3, (1 << 64) - 1) <= 1.0
