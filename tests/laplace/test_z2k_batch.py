"""The vectorised f64 sampler on the grid 2^k Z has the law of the one-element sampler:
chi-square and KS against the exact pmf where the outputs are grid points, KS against the
Laplace law on the finest grid, and each shortcut (bucket test, deferred low bits, rounding
check) replaced in turn by its exact fallback, which must give the same law."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from certdp.samplers import discrete_laplace_z2k_batch as batch_module
from certdp.samplers import entropy_source
from certdp.samplers.discrete_laplace_z2k_batch import (
    accept_exactly,
    bucket_bound,
    discrete_laplace_Z2k_batch_sampler,
    exp_bounds,
    split_exponent,
)
from certdp.samplers.exp_digits import exp_neg_digits

from .stats import (
    SIGNIFICANCE,
    chi_square_pvalue,
    discrete_laplace_cdf,
    discrete_laplace_pmf,
    ks_pvalue,
)

N = 40_000


def grid_offsets(scale: Fraction, k: int, shift: float, count: int = N) -> list[int]:
    """Draws on a grid coarse enough that every output is its grid point, as offsets in grid
    steps from the shift's grid point."""
    sampler = discrete_laplace_Z2k_batch_sampler(scale, k, "f64")
    outputs = sampler(entropy_source(), [shift] * count)
    base = round(Fraction(shift) / Fraction(2) ** k)
    offsets = [Fraction(y) / Fraction(2) ** k - base for y in outputs]
    assert all(o.denominator == 1 for o in offsets)
    return [int(o) for o in offsets]


def assert_discrete_laplace(offsets, grid_scale: float, width: int) -> None:
    pmf, cdf = discrete_laplace_pmf(grid_scale), discrete_laplace_cdf(grid_scale)
    support = range(-width, width + 1)
    assert chi_square_pvalue(offsets, pmf, support) > SIGNIFICANCE
    assert ks_pvalue(offsets, cdf) > SIGNIFICANCE


def test_split_exponent_puts_the_quotient_rate_in_its_interval():
    for s, t in [(1, 8), (1, 256), (3, 1000), (1, 1 << 1074), (7, (1 << 1074) * 5 + 3)]:
        j = split_exponent(s, t)
        assert Fraction(1, 16) < Fraction(s << j, t) <= Fraction(1, 8)


def test_exp_bounds_enclose_the_exact_digits():
    for n, t in [(0, 5), (1, 3), (3 << 1000, 1 << 1004), (12345, 1 << 20)]:
        lo, hi = exp_bounds(n, t, 64)
        exact = exp_neg_digits(n, t, 64) if n else 1 << 64
        assert lo <= exact <= hi and hi - lo <= 2


def test_bucket_bounds_bound_every_bucket():
    n, t, h = 1 << 5, 256, 5
    for i in range(1 << h):
        below, above = bucket_bound(n, t, h, i)
        assert below <= exp_neg_digits(n * (i + 1), t << h, 64)
        assert above >= min(exp_neg_digits(n * i, t << h, 64) if i else 1 << 64, 2**64 - 1)
        assert below <= above <= 2**64 - 1


def test_accept_exactly_decides_near_the_threshold():
    n, t = 5, 7
    threshold = exp_neg_digits(n, t, 64)
    assert accept_exactly(entropy_source(), threshold - 1, n, t) is True
    assert accept_exactly(entropy_source(), threshold + 1, n, t) is False
    assert accept_exactly(entropy_source(), 2**64 - 1, 0, t) is True  # exp(0) = 1


@pytest.mark.parametrize("shift", [0.3, -7.75, 1e6])
def test_batch_law_on_a_grid_where_outputs_are_grid_points(shift):
    # grid 2^-8, scale 1: 256 grid steps, beyond the direct algorithm: the vectorised path
    offsets = grid_offsets(Fraction(1), -8, shift)
    assert_discrete_laplace(offsets, 256.0, 1200)


def test_batch_law_with_a_scale_that_is_not_a_power_of_two():
    offsets = grid_offsets(Fraction(3, 5), -9, 0.0)  # 307.2 grid steps
    assert_discrete_laplace(offsets, 307.2, 1500)


def test_every_test_undecided_gives_the_same_law(monkeypatch):
    """Bounds that decide nothing send every draw through the exact test."""
    monkeypatch.setattr(batch_module, "bucket_bound", lambda n, t, h, i: (0, 2**64 - 1))
    offsets = grid_offsets(Fraction(1), -8, 0.3, count=20_000)
    assert_discrete_laplace(offsets, 256.0, 1200)


def residue_pvalue(offsets, grid_scale: float, modulus: int) -> float:
    """Chi-square p-value of ``|Z| mod modulus`` against its exact law under DLap: the part of
    the magnitude the bucket test shapes (``B`` when ``modulus = 2^j``)."""
    q = math.exp(-1.0 / grid_scale)
    weights = [(1 + 2 * q**modulus / (1 - q**modulus)) if r == 0 else 2 * q**r / (1 - q**modulus)
               for r in range(modulus)]  # fmt: skip
    total = sum(weights)
    residues = [abs(z) % modulus for z in offsets]
    return chi_square_pvalue(
        residues, lambda r: weights[r] / total if 0 <= r < modulus else 0.0, range(modulus)
    )


def test_the_residues_test_catches_a_wrong_bucket_table(monkeypatch):
    """A shortcut that accepts too much is seen: a table accepting every proposal of the upper
    half of the range makes B too likely there.  The same test passes on the real tables."""
    scale, k = Fraction(1, 16), -12  # 256 grid steps: j = 5, B on [0, 32)
    assert split_exponent(1, 256) == 5
    assert residue_pvalue(grid_offsets(scale, k, 0.0), 256.0, 32) > SIGNIFICANCE
    real = bucket_bound

    def too_generous(n, t, h, i):
        below, above = real(n, t, h, i)
        return (2**64 - 1 if i >= (1 << h) // 2 else below), above

    monkeypatch.setattr(batch_module, "bucket_bound", too_generous)
    # Power: at N draws the p-value of the wrong table had a median near 1e-11 but came above
    # 1e-6 in about one run of twenty (a CI failure); at 4N the largest of 100 runs was 1e-48.
    assert residue_pvalue(grid_offsets(scale, k, 0.0, 4 * N), 256.0, 32) < SIGNIFICANCE


def test_finest_grid_matches_the_laplace_law():
    sampler = discrete_laplace_Z2k_batch_sampler(Fraction(1), -1074, "f64")
    samples = sampler(entropy_source(), [0.3] * N)
    assert stats.kstest(samples, stats.laplace(loc=0.3, scale=1.0).cdf).pvalue > SIGNIFICANCE


def test_deferred_low_bits_drawn_always_give_the_same_law(monkeypatch):
    """With the rounding check never satisfied, every draw draws its low bits: the law must be
    the same (here 2^-1000 scale on the finest grid, so the low bits are 7 bits of B)."""
    scale = Fraction(1, 1 << 1000)
    sampler = discrete_laplace_Z2k_batch_sampler(scale, -1074, "f64")
    fast = np.array(sampler(entropy_source(), [0.0] * 20_000)) * 2.0**1000
    monkeypatch.setattr(batch_module, "_same_float", lambda a, b: False)
    slow_sampler = discrete_laplace_Z2k_batch_sampler(scale, -1074, "f64")
    slow = np.array(slow_sampler(entropy_source(), [0.0] * 20_000)) * 2.0**1000
    laplace = stats.laplace(loc=0.0, scale=1.0).cdf
    assert stats.kstest(fast, laplace).pvalue > SIGNIFICANCE
    assert stats.kstest(slow, laplace).pvalue > SIGNIFICANCE


def test_the_batch_sampler_falls_back_where_it_does_not_apply():
    """f32, a zero scale and a grid coarse enough for the direct algorithm go one by one."""
    source = entropy_source()
    assert discrete_laplace_Z2k_batch_sampler(Fraction(0), -10, "f64")(source, [0.3]) == [
        0.2998046875
    ]
    coarse = discrete_laplace_Z2k_batch_sampler(Fraction(1), -2, "f64")(source, [0.3] * 5)
    assert all((Fraction(y) * 4).denominator == 1 for y in coarse)
    single = discrete_laplace_Z2k_batch_sampler(Fraction(1), -1074, "f32")(source, [0.5])
    assert np.float32(single[0]) == single[0]


def exact_rounding(x: float, a: int, b: int, minus: bool, k: int, j: int, low: int, r: int):
    from certdp.samplers import grid_point_to_float, nearest_grid_index

    g = (a << j) | (b << low) | r
    c = nearest_grid_index(x, k)
    return grid_point_to_float(c - g if minus else c + g, k, "f64")


@pytest.mark.parametrize(
    "k, j, low",
    [(-1074, 1071, 1007), (-1074, 70, 6), (-8, 5, 0), (-60, 40, 0), (-1074, 64, 0), (-30, 100, 36)],
)
def test_fast_rounding_agrees_with_the_exact_rounding_wherever_it_decides(k, j, low):
    """Every value the f64 shortcut decides is the exact rounding of every G its known bits
    allow (the lowest and the highest are checked); ties, huge and tiny values included."""
    rng = np.random.default_rng(1)
    count = 4000
    top = j - low
    magnitudes = [0.0, 0.3, -7.75, 1e6, -2.5e-300, 1e300, 5e-324, 2.0**-1022, 0.5, -0.5]
    shifts = [magnitudes[i % len(magnitudes)] * float(rng.integers(1, 9)) for i in range(count)]
    quotients = np.array([int(v) for v in rng.geometric(0.1, count) - 1], dtype=object)
    quotients[:5] = [0, 2**21, 2**40, 1, 0]
    proposals = rng.integers(0, 2**64, size=count, dtype=np.uint64) >> np.uint64(64 - top)
    negative = rng.integers(0, 2, count).astype(bool)
    values, decided = batch_module.fast_rounding(shifts, quotients, proposals, negative, k, j, low)
    assert sum(decided) > count // 2  # the shortcut decides most draws
    for i in np.flatnonzero(decided).tolist():
        args = (shifts[i], int(quotients[i]), int(proposals[i]), bool(negative[i]), k, j, low)
        for r in {0, (1 << low) - 1}:
            assert exact_rounding(*args, r) == values[i], (args, r)


@pytest.mark.parametrize("scale", [Fraction(256), Fraction(1000, 3), Fraction(2**80 + 1)])
def test_large_batch_sampler_is_discrete_laplace(scale):
    """The integer draws of the split (no threshold table): the exact DLap law, in units of
    ``scale`` for the huge one (KS against the continuous law there moves by < 2^-70)."""
    sampler = batch_module.discrete_laplace_large_batch_sampler(scale)
    draws = sampler(entropy_source(), N)
    assert draws.dtype == object and all(type(z) is int for z in draws[:100])
    if scale < 10**6:
        assert_discrete_laplace([int(z) for z in draws], float(scale), int(6 * scale))
    else:
        scaled = [float(Fraction(int(z)) / scale) for z in draws]
        assert stats.kstest(scaled, stats.laplace(loc=0.0, scale=1.0).cdf).pvalue > SIGNIFICANCE


def test_large_batch_sampler_is_the_direct_one_where_a_table_exists():
    draws = batch_module.discrete_laplace_large_batch_sampler(Fraction(3))(entropy_source(), 50)
    assert draws.dtype == np.int64
    assert batch_module.discrete_laplace_large_batch_sampler(Fraction(0))(
        entropy_source(), 3
    ).tolist() == [0, 0, 0]
