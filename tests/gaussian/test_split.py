"""The vectorised discrete Gaussian for scales beyond the threshold tables (split_gaussian):
its bounds enclose the exact digits, its decisions agree with the exact comparison, and its
draws (integer and on the grid 2^k Z) have the exact law, also with every shortcut replaced by
its exact fallback; a deliberately wrong bucket bound is refuted (significance 1e-6)."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from certdp.samplers import discrete_gaussian as dg
from certdp.samplers import discrete_gaussian_split as split_module
from certdp.samplers import discrete_gaussian_z2k as z2k_module
from certdp.samplers import discrete_laplace_z2k_batch as batch_module
from certdp.samplers import entropy_source
from certdp.samplers.discrete_gaussian_split import (
    accept_gaussian,
    exp_neg_bounds,
    gaussian_bucket_bound,
)
from certdp.samplers.exp_digits import exp_neg_digits

from .stats import SIGNIFICANCE, chi_square_pvalue, discrete_gaussian_pmf, support
from .test_samplers import _fits

ALL_ONES = 2**64 - 1
N = 20_000


def exact_digits(n: int, d: int) -> int:
    """floor(2^64 exp(-n/d)), with exp(0) = 1."""
    return exp_neg_digits(n, d, 64) if n else 1 << 64


def test_exp_neg_bounds_enclose_the_exact_digits():
    rng = random.Random(7)
    cases = [(0, 1), (0, 10**40), (1, 3), (5, 7), (7, 5), (13, 1), (63, 1), (3 << 1000, 1 << 1004)]
    cases += [(1 << 300, (1 << 300) + 1), ((1 << 300) + 1, 1 << 300)]
    for _ in range(150):
        d = rng.randrange(1, 1 << rng.randrange(1, 160))
        cases.append((rng.randrange(0, d * rng.choice([1, 2, 9, 45])), d))
    for n, d in cases:
        lo, hi = exp_neg_bounds(n, d, 64)
        exact = exact_digits(n, d)
        # exp(-n/d) is irrational for n > 0: floor < 2^64 exp(-n/d), so hi > floor
        assert lo <= exact and (hi > exact if n else hi >= exact), (n, d)
        assert hi - lo <= 2, (n, d)


def test_exp_neg_bounds_at_other_precisions():
    for n, d, digits in [(1, 3, 10), (40, 7, 128), (5, 1, 0), (2, 9, 200)]:
        lo, hi = exp_neg_bounds(n, d, digits)
        exact = exp_neg_digits(n, d, digits)
        assert lo <= exact < hi


def bucket_geometry(sigma: Fraction):
    """What split_gaussian builds for sigma: the exponent, the vertex and the bucket width."""
    t, d, numerator = dg.acceptance_exponent(sigma)
    j, low, _ = batch_module.split_laplace(t, 1)
    width = j - min(j - low, split_module.BUCKET_BITS)
    return t, d, numerator, sigma * sigma / t, width


@pytest.mark.parametrize("sigma", [Fraction(3 * 2**20 + 1, 3), Fraction(2**30) + Fraction(1, 7)])
def test_bucket_bounds_hold_for_every_magnitude_of_the_bucket(sigma):
    t, d, numerator, vertex, width = bucket_geometry(sigma)
    assert width >= 10  # buckets of many magnitudes
    rng = random.Random(3)
    vertex_bucket = int(vertex) >> width
    points = {}
    for i in [*range(0, 40), vertex_bucket, vertex_bucket + 1, 200, 511]:
        g0, g1 = i << width, (i + 1) << width
        below, above = gaussian_bucket_bound(g0, g1, vertex, numerator, d, points)
        assert 0 <= below <= above <= ALL_ONES
        inside = [g0, g1, g0 + 1, g1 - 1, *(rng.randrange(g0, g1) for _ in range(4))]
        if g0 <= vertex <= g1:
            inside += [int(vertex), int(vertex) + 1]
        for g in inside:
            exact = exact_digits(numerator(g), d)
            assert below <= exact, (i, g)  # w < below implies w < exact: an exact accept
            assert above >= min(exact, ALL_ONES), (i, g)  # w > above implies w > exact


def test_bucket_decisions_agree_with_the_exact_comparison():
    """Random (magnitude, 64-digit prefix) pairs: whatever the bucket test decides is what the
    exact comparison of the prefix with floor(2^64 exp(-gamma)) decides."""
    sigma = Fraction(5 * 2**40 + 2, 5)
    t, d, numerator, vertex, width = bucket_geometry(sigma)
    rng = random.Random(11)
    points, decided = {}, 0
    for _ in range(3000):
        g = int(rng.expovariate(1.0) * t)
        i = g >> width
        below, above = gaussian_bucket_bound(
            i << width, (i + 1) << width, vertex, numerator, d, points
        )
        exact = exact_digits(numerator(g), d)
        w = rng.choice([rng.randrange(0, 1 << 64), max(below - 1, 0), min(above + 1, ALL_ONES)])
        if w < below:
            assert w < exact
            decided += 1
        elif w > above:
            assert w > exact
            decided += 1
    assert decided > 2000


class ScriptedSource:
    """An entropy source whose ``bits`` returns given values (the further digits of W)."""

    def __init__(self, *values):
        self.values = list(values)

    def bits(self, count):
        return self.values.pop(0)


def test_accept_gaussian_decides_at_and_near_the_threshold():
    n, d = 5, 7
    threshold = exp_neg_digits(n, d, 64)
    assert accept_gaussian(ScriptedSource(), threshold - 1, n, d) is True
    assert accept_gaussian(ScriptedSource(), threshold + 1, n, d) is False
    assert accept_gaussian(ScriptedSource(), ALL_ONES, 0, d) is True  # exp(0) = 1 > W
    # the prefix equals the 64 digits: the next 64 digits of W decide
    next_digits = exp_neg_digits(n, d, 128) & ALL_ONES
    assert accept_gaussian(ScriptedSource(next_digits - 1), threshold, n, d) is True
    assert accept_gaussian(ScriptedSource(next_digits + 1), threshold, n, d) is False


def uses_split(monkeypatch) -> list:
    seen = []
    real = dg.split_gaussian
    monkeypatch.setattr(dg, "split_gaussian", lambda s, e: seen.append(s) or real(s, e))
    return seen


# t = floor(sigma) + 1 >= 93: no threshold table, so the split path; buckets of one magnitude
# up to t = 2^8 and of 2^(j - 4) magnitudes beyond
SPLIT_SCALES = [Fraction(185, 2), Fraction(200), Fraction(0.1 * 1024), Fraction(1000, 3)]


@pytest.mark.parametrize("sigma", SPLIT_SCALES)
def test_split_integer_draws_fit_the_exact_pmf(monkeypatch, sigma):
    seen = uses_split(monkeypatch)
    draws = dg.discrete_gaussian_batch_sampler(sigma)(entropy_source(), N)
    assert seen == [sigma] and draws.dtype == object and len(draws) == N
    _fits(draws, float(sigma))


def test_every_test_undecided_gives_the_same_law(monkeypatch):
    """Bounds that decide nothing send every proposal through the exact test."""
    monkeypatch.setattr(split_module, "gaussian_bucket_bound", lambda *args: (0, ALL_ONES))
    calls = []
    real = split_module.accept_gaussian
    monkeypatch.setattr(split_module, "accept_gaussian", lambda *a: calls.append(a) or real(*a))
    draws = dg.discrete_gaussian_batch_sampler(Fraction(1000, 3))(entropy_source(), N)
    assert len(calls) >= N
    _fits(draws, 1000 / 3)


def test_a_too_generous_bucket_bound_is_refuted(monkeypatch):
    """Accepting every proposal of magnitude 1.5 sigma or more without a test gives that tail
    the Laplace proposal's weight: the goodness-of-fit test sees it."""
    sigma = Fraction(200)
    real = split_module.gaussian_bucket_bound

    def too_generous(g0, g1, vertex, numerator, d, points):
        below, above = real(g0, g1, vertex, numerator, d, points)
        return (ALL_ONES if g0 >= 300 else below), above

    monkeypatch.setattr(split_module, "gaussian_bucket_bound", too_generous)
    draws = np.asarray(
        [int(z) for z in dg.discrete_gaussian_batch_sampler(sigma)(entropy_source(), N)]
    )
    pvalue = chi_square_pvalue(draws, discrete_gaussian_pmf(200.0), support(200.0))
    assert pvalue < SIGNIFICANCE


@pytest.mark.parametrize("exact_only", [False, True])
def test_huge_scale_draws_with_undrawn_low_bits(monkeypatch, exact_only):
    """sigma = 2^80 + 1/3: the proposals' low bits (j - 64 of them) are mostly never drawn; in
    units of sigma the law is N(0, 1) up to < 2^-70 (KS); with every test undecided they are
    drawn for every proposal and the law is the same."""
    sigma = Fraction(3 * 2**80 + 1, 3)
    j, low, _ = split_module.split_laplace(int(sigma) + 1, 1)
    assert low > 0
    if exact_only:
        monkeypatch.setattr(split_module, "gaussian_bucket_bound", lambda *args: (0, ALL_ONES))
    count = 4_000 if exact_only else N
    draws = dg.discrete_gaussian_batch_sampler(sigma)(entropy_source(), count)
    assert all(type(z) is int for z in draws)
    scaled = [float(Fraction(int(z)) / sigma) for z in draws]
    assert stats.kstest(scaled, stats.norm(loc=0.0, scale=1.0).cdf).pvalue > SIGNIFICANCE


def test_split_draws_keep_the_low_bits_they_drew(monkeypatch):
    """Every low-bit string an undecided test draws is the one the returned draw uses: the
    integers formed from the draw equal those the exact tests saw."""
    sigma = Fraction(3 * 2**80 + 1, 3)
    exponent = dg.acceptance_exponent(sigma)
    tested = {}
    real = split_module.accept_gaussian

    def spy(source, prefix, n, d):
        accepted = real(source, prefix, n, d)
        if accepted:
            tested[n] = True
        return accepted

    monkeypatch.setattr(split_module, "gaussian_bucket_bound", lambda *args: (0, ALL_ONES))
    monkeypatch.setattr(split_module, "accept_gaussian", spy)
    j, low, draw = split_module.split_gaussian(sigma, exponent)
    quotients, proposals, negative, lows = draw(entropy_source(), 500)
    assert len(lows) == 500  # every element was tested exactly, so drew its low bits
    for i in range(500):
        g = (int(quotients[i]) << j) | (int(proposals[i]) << low) | lows[i]
        assert exponent[2](g) in tested


def grid_offsets(scale: Fraction, k: int, shift: float, count: int = N) -> list[int]:
    outputs = dg_z2k(scale, k)(entropy_source(), [shift] * count)
    base = round(Fraction(shift) / Fraction(2) ** k)
    offsets = [Fraction(y) / Fraction(2) ** k - base for y in outputs]
    assert all(o.denominator == 1 for o in offsets)
    return [int(o) for o in offsets]


def dg_z2k(scale: Fraction, k: int):
    return z2k_module.discrete_gaussian_Z2k_sampler(scale, k, "f64")


@pytest.mark.parametrize("shift", [0.3, -7.75, 1e6])
def test_z2k_split_on_a_grid_where_outputs_are_grid_points(monkeypatch, shift):
    # grid 2^-8, scale 1: 256 grid steps, no threshold table: the split path
    seen = []
    real = z2k_module.split_gaussian
    monkeypatch.setattr(z2k_module, "split_gaussian", lambda s, e: seen.append(s) or real(s, e))
    offsets = grid_offsets(Fraction(1), -8, shift)
    assert seen == [Fraction(256)]
    _fits(offsets, 256.0)


def test_z2k_split_with_low_bits_drawn_for_the_rounding(monkeypatch):
    """Scale 2^-1000 on the finest grid: the results are below 2^-969, so every rounding goes
    through the exact path, which draws the low bits where the two ends round apart; with the
    check never satisfied, every element draws them: both laws are N(0, 2^-2000)."""
    scale = Fraction(1, 1 << 1000)
    normal = stats.norm(loc=0.0, scale=1.0).cdf
    fast = np.array(dg_z2k(scale, -1074)(entropy_source(), [0.0] * N)) * 2.0**1000
    assert stats.kstest(fast, normal).pvalue > SIGNIFICANCE
    monkeypatch.setattr(batch_module, "_same_float", lambda a, b: False)
    slow = np.array(dg_z2k(scale, -1074)(entropy_source(), [0.0] * N)) * 2.0**1000
    assert stats.kstest(slow, normal).pvalue > SIGNIFICANCE


def test_z2k_split_takes_numpy_arrays_and_lists_alike():
    sampler = dg_z2k(Fraction(1), -1074)
    source = entropy_source()
    from_list = sampler(source, [0.5, -3.0, 1e300])
    from_array = sampler(source, np.array([0.5, -3.0, 1e300]))
    for values in (from_list, from_array):
        assert len(values) == 3 and all(type(v) is float for v in values)
        assert abs(values[2] - 1e300) < 1e286  # ulp of 1e300 is about 1.5e284


def test_the_split_starts_where_the_threshold_tables_end():
    """SPLIT_FROM is the first proposal scale without a threshold table (the choice affects only
    speed, but a table-less scale below it would send proposals one by one)."""
    from certdp.samplers.geometric import threshold_table

    for t in range(80, 101):
        assert (threshold_table(1, t) is None) == (t >= dg.SPLIT_FROM), t


def test_large_quotients_go_to_the_exact_test(monkeypatch):
    """With the quotient limit lowered to 1, every proposal with A >= 1 is 'large' and skips the
    bucket test: the exact tests alone give the same law."""
    monkeypatch.setattr(split_module, "QUOTIENT_LIMIT", 1)
    calls = []
    real = split_module.accept_gaussian
    monkeypatch.setattr(split_module, "accept_gaussian", lambda *a: calls.append(a) or real(*a))
    draws = dg.discrete_gaussian_batch_sampler(Fraction(1000, 3))(entropy_source(), N)
    assert len(calls) > N // 2
    _fits(draws, 1000 / 3)


@given(
    n=st.integers(min_value=0, max_value=2**90),
    d=st.integers(min_value=1, max_value=2**90),
    digits=st.integers(min_value=0, max_value=140),
)
def test_exp_neg_bounds_enclose_every_value(n, d, digits):
    lo, hi = exp_neg_bounds(n, d, digits)
    if n == 0:
        assert lo <= 1 << digits <= hi
    else:
        exact = exp_neg_digits(n, d, digits)
        assert lo <= exact < hi  # irrational: floor(2^m exp(-n/d)) < 2^m exp(-n/d) <= hi
    assert 0 <= lo < 1 << digits  # paragraph 1 of the lemma: lo < 2^m


@pytest.mark.parametrize("scale", [0.3, 0.7, 0.1 * 1024, 1e-5, 3e7])
def test_z2k_finest_grid_float_scales_match_the_gaussian_law(scale):
    """Float scales (squares with denominators near 2^110) on the default grid k = -1074: the
    grid is far finer than the float spacing of the bulk, so the law is N(0, scale^2) (KS)."""
    outputs = dg_z2k(Fraction(scale), -1074)(entropy_source(), [0.0] * N)
    scaled = [v / scale for v in outputs]
    assert stats.kstest(scaled, stats.norm(loc=0.0, scale=1.0).cdf).pvalue > SIGNIFICANCE
