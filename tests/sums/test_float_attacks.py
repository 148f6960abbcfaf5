"""Regression tests for the attacks of Casacuberta, Shoemate, Vadhan and Wagaman (2022),
"Widespread underestimation of sensitivity in differentially private libraries and how to
fix it": rounding, repeated rounding and reordering.  Each shows a concrete pair of
neighbouring datasets on which the naive map (the ideal sensitivity, no rounding term) is
exceeded, while certdp's map holds.  Last, the pair that refutes OpenDP 0.16's map for a
saturating pairwise ordered sum, which certdp refuses to build.
"""

import sys
from fractions import Fraction

import pytest

import certdp.prelude as dp
from certdp.core.errors import ArithmeticOverflowError
from certdp.numeric import inf_add
from certdp.transformations._summation.float_summation import (
    parse_summation,
    saturating_float_sum,
    sum_relaxation,
)

MAX64 = sys.float_info.max
BIG = 2.0**53  # from here on, f64 values are 2 apart: every sum rounds


def distance(a, b) -> Fraction:
    return abs(Fraction(a) - Fraction(b))


def symmetric_distance(x, y) -> int:
    from collections import Counter

    a, b = Counter(x), Counter(y)
    return sum(((a - b) + (b - a)).values())


@pytest.mark.parametrize(
    "S, x, x_prime",
    [
        ("Sequential<f64>", [BIG, BIG, BIG + 2, BIG + 4], [BIG + 4, BIG, BIG + 2, BIG + 4]),
        ("Pairwise<f64>", [BIG, BIG + 2, BIG, BIG + 4], [BIG + 4, BIG + 2, BIG, BIG + 4]),
    ],
)
def test_rounding_attack(S, x, x_prime):
    """One record changes by U - L = 4; the sums move by 16."""
    bounds = (BIG, BIG + 4)
    built = dp.t.make_sized_bounded_float_checked_sum(4, bounds, S=S)
    assert symmetric_distance(x, x_prime) == 2
    observed = distance(built(x), built(x_prime))
    naive = Fraction(bounds[1] - bounds[0])  # floor(2 / 2) * (U - L)
    assert observed == 16 > naive
    assert observed <= Fraction(built.map(2))


def test_repeated_rounding_attack():
    """A long alternating run: changing the first record shifts every partial sum, and the
    roundings add up to far more than U - L = 1 (8192 at n = 10^4, growing with n)."""
    low, high = 2.0**52, 2.0**52 + 1
    for n, moved in ((100, 64), (1000, 512), (10_000, 8192)):
        built = dp.t.make_sized_bounded_float_checked_sum(n, (low, high), S="Sequential<f64>")
        x = [low, high] * (n // 2)
        x_prime = [high] + x[1:]
        assert symmetric_distance(x, x_prime) == 2
        observed = distance(built(x), built(x_prime))
        assert observed == moved > 1  # the naive map says 1
        assert observed <= Fraction(built.map(2))


@pytest.mark.parametrize(
    "S, x, x_prime",
    [
        ("Sequential<f64>", [BIG, 1.0, 1.0], [1.0, 1.0, BIG]),
        ("Pairwise<f64>", [BIG, 1.0, 1.0], [1.0, 1.0, BIG]),
    ],
)
def test_reordering_attack(S, x, x_prime):
    """The same multiset in another order: distance 0, yet the sums differ by 2."""
    for name in ("make_sized_bounded_float_checked_sum", "make_bounded_float_checked_sum"):
        built = getattr(dp.t, name)(3, (0.0, BIG), S=S)
        assert symmetric_distance(x, x_prime) == 0
        observed = distance(built(x), built(x_prime))
        assert observed == 2 > 0  # the naive map(0) is 0
        assert observed <= Fraction(built.map(0))


def test_exact_strategy_is_immune_to_reordering():
    built = dp.t.make_sized_bounded_float_checked_sum(3, (0.0, BIG), S="Exact<f64>")
    assert built([BIG, 1.0, 1.0]) == built([1.0, 1.0, BIG]) == BIG + 2


def test_opendp_saturating_pairwise_map_is_refuted():
    """OpenDP 0.16 builds make_sized_bounded_float_ordered_sum(16, (-0.2 MAX, 0.75 MAX)) with
    map(2) = (U - L) + relaxation = 0.95 MAX + (tiny).  Moving the first record to the end
    (insert-delete distance 2) moves the saturating pairwise sum by 1.0 MAX."""
    lower, upper = -0.2 * MAX64, 0.75 * MAX64
    pairwise = parse_summation("Pairwise<f64>")
    x = ([upper, upper] + [lower] * 6) * 2
    x_prime = x[1:] + [upper]
    # OpenDP's map, which certdp reproduces bit for bit elsewhere
    opendp_map = inf_add(upper - lower, sum_relaxation(pairwise, 16, lower, upper))
    observed = distance(saturating_float_sum(pairwise, x), saturating_float_sum(pairwise, x_prime))
    assert observed > Fraction(opendp_map)
    assert observed / Fraction(MAX64) > Fraction(99, 100)
    with pytest.raises(ArithmeticOverflowError, match="^S: a saturating Pairwise<f64> sum"):
        dp.t.make_sized_bounded_float_ordered_sum(16, (lower, upper), S="Pairwise<f64>")
    # the sequential saturating sum has a proven map on the same data
    sequential = dp.t.make_sized_bounded_float_ordered_sum(16, (lower, upper), S="Sequential<f64>")
    assert distance(sequential(x), sequential(x_prime)) <= Fraction(sequential.map(2))
