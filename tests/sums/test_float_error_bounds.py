"""|float sum - exact sum| <= the proven error, on adversarial data up to n = 10^6.

Every dataset is made of integer multiples of one power of two, so its exact sum is an
integer sum computed independently of the code under test.  The error bound is
``sum_error`` (the proof's closed form, rounded up), for Sequential, Pairwise and Exact in
f32 and f64.
"""

from fractions import Fraction

import numpy as np
import pytest

from certdp.transformations._summation.float_summation import (
    float_sum,
    parse_summation,
    sum_error,
)

STRATEGIES = [f"{a}<{T}>" for a in ("Sequential", "Pairwise", "Exact") for T in ("f32", "f64")]
SIZES = [10, 1000, 100_000, 1_000_000]


def _pseudo_random(n: int, bits: int, salt: int) -> np.ndarray:
    """Deterministic integers in [0, 2^bits) (a multiplicative hash of the index)."""
    index = np.arange(n, dtype=np.uint64) + np.uint64(salt)
    mixed = index * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
    return (mixed >> np.uint64(64 - bits)).astype(np.int64)


def adversarial(family: str, n: int, precision: int):
    """(integers, scale): the data is integers * 2^scale, every value in [-1, 1]."""
    top = 1 << precision
    if family == "just-below-one":  # every partial sum rounds, all errors of one sign
        integers = np.full(n, top - 1, dtype=np.int64)
    elif family == "uniform-positive":
        integers = _pseudo_random(n, precision, 1)
    elif family == "mixed-signs":
        integers = _pseudo_random(n, precision, 2) * (1 - 2 * (_pseudo_random(n, 1, 3)))
    elif family == "one-big-many-lost":  # halves of an ulp that round away one by one
        integers = np.full(n, 1, dtype=np.int64)
        integers[0] = top - 1
        integers[1:] = 1 << 0
    elif family == "ramp":  # growing magnitudes: late records see coarse partial sums
        integers = (np.arange(1, n + 1, dtype=np.int64) * (top - 1)) // n
    else:
        raise ValueError(family)
    return integers, -precision


FAMILIES = ["just-below-one", "uniform-positive", "mixed-signs", "one-big-many-lost", "ramp"]


@pytest.mark.parametrize("S", STRATEGIES)
@pytest.mark.parametrize("n", SIZES)
def test_sum_error_bounds_the_rounding_error(S, n):
    summation = parse_summation(S)
    precision = summation.mantissa_bits + 1
    worst = Fraction(0)
    for family in FAMILIES:
        integers, scale = adversarial(family, n, precision)
        values = np.ldexp(integers.astype(np.float64), scale).astype(summation.dtype)
        assert (values.astype(np.float64) == np.ldexp(integers.astype(np.float64), scale)).all()
        exact = Fraction(sum(integers.tolist())) * Fraction(2) ** scale
        lower, upper = float(values.min()), float(values.max())
        bound = Fraction(sum_error(summation, n, min(lower, 0.0), max(upper, 0.0)))
        observed = abs(Fraction(float_sum(summation, values)) - exact)
        assert observed <= bound, (family, float(observed), float(bound))
        worst = max(worst, observed / bound if bound else Fraction(0))
    # the data really does round (except for the exact strategy, which barely does)
    if summation.algorithm != "Exact" and n >= 1000:
        assert worst > 0
