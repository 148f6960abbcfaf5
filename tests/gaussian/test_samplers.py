"""The exact discrete Gaussian samplers against their exact laws (significance 1e-6)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from certdp.core.errors import FailedFunctionError
from certdp.samplers import discrete_gaussian as dg
from certdp.samplers import (
    discrete_gaussian_batch_sampler,
    discrete_gaussian_sampler,
    discrete_gaussian_Z2k_sampler,
    entropy_source,
    sample_discrete_gaussian,
    sample_discrete_gaussian_Z2k,
)

from .stats import (
    SIGNIFICANCE,
    chi_square_pvalue,
    discrete_gaussian_cdf,
    discrete_gaussian_pmf,
    ks_pvalue,
    support,
)

N = 20_000


def _fits(samples, sigma) -> None:
    samples = np.asarray([int(v) for v in samples])
    assert chi_square_pvalue(samples, discrete_gaussian_pmf(sigma), support(sigma)) > SIGNIFICANCE
    assert ks_pvalue(samples, discrete_gaussian_cdf(sigma)) > SIGNIFICANCE
    # symmetric: among the non-zero draws, the sign is a fair coin
    positive, negative = int(np.sum(samples > 0)), int(np.sum(samples < 0))
    assert stats.binomtest(positive, positive + negative, 0.5).pvalue > SIGNIFICANCE


@pytest.mark.parametrize("scale", [Fraction(1, 3), Fraction(1), Fraction(5, 2), Fraction(7)])
def test_discrete_gaussian_fits_its_exact_pmf(scale):
    source = entropy_source()
    sampler = discrete_gaussian_sampler(scale)
    _fits([sampler(source) for _ in range(N)], float(scale))


@pytest.mark.parametrize("scale", [Fraction(1, 3), Fraction(1), Fraction(9, 2), Fraction(40)])
def test_batch_discrete_gaussian_fits_its_exact_pmf(scale):
    draws = discrete_gaussian_batch_sampler(scale)(entropy_source(), N)
    assert draws.dtype == np.int64 and draws.shape == (N,)
    _fits(draws, float(scale))


def test_batch_with_python_integer_proposals_fits():
    # t = 201 has no threshold table: proposals come one by one as Python integers
    draws = discrete_gaussian_batch_sampler(Fraction(200))(entropy_source(), 5_000)
    assert draws.dtype == object
    _fits(draws, 200.0)


def test_zero_scale_is_exact():
    assert discrete_gaussian_sampler(Fraction(0))(entropy_source()) == 0
    assert list(discrete_gaussian_batch_sampler(Fraction(0))(entropy_source(), 4)) == [0] * 4
    assert sample_discrete_gaussian(0) == 0


def test_acceptance_exponent_is_exact():
    for scale in [Fraction(1, 3), Fraction(1), Fraction(22, 7), Fraction(2**80 + 1, 3)]:
        t, d, n = dg.acceptance_exponent(scale)
        assert t == int(scale) + 1
        for y in [-5, 0, 1, 7, 10**30]:
            assert Fraction(n(y), d) == (abs(y) - scale**2 / t) ** 2 / (2 * scale**2)


def test_batch_refines_undecided_words(monkeypatch):
    """A word equal to the 64 digits of exp(-gamma) is decided by further digits, and the
    outcome is the comparison of the whole W with exp(-gamma)."""
    scale = Fraction(1)
    t, d, n = dg.acceptance_exponent(scale)
    digits = dg.exp_neg_digits(n(1), d, 64)
    calls = []

    class Source:
        def __init__(self, inner, next_bits):
            self.inner, self.next_bits = inner, next_bits

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def words(self, count):
            return np.full(count, digits, dtype=np.uint64)

        def bits(self, n_bits):
            calls.append(n_bits)
            return self.next_bits

    proposals = dg.discrete_laplace_large_batch_sampler(Fraction(t))
    monkeypatch.setattr(
        dg, "discrete_laplace_large_batch_sampler", lambda s: lambda src, c: np.ones(c, np.int64)
    )
    below = dg.discrete_gaussian_batch_sampler(scale)(Source(entropy_source(), 0), 3)
    assert list(below) == [1, 1, 1] and calls  # W just above the prefix: W < exp(-gamma)
    monkeypatch.setattr(dg, "discrete_laplace_large_batch_sampler", lambda s: proposals)
    direct = dg.bernoulli_exp_refine
    next_digits = dg.exp_neg_digits(n(1), d, 128) & ((1 << 64) - 1)
    assert direct(Source(entropy_source(), next_digits - 1), n(1), d, digits) is True
    assert direct(Source(entropy_source(), next_digits + 1), n(1), d, digits) is False


def test_z2k_default_grid_matches_the_gaussian_law():
    sampler = discrete_gaussian_Z2k_sampler(Fraction(1), -1074, "f64")
    samples = sampler(entropy_source(), [0.25] * 4_000)
    # at k = -1074 the grid is finer than any float spacing near the bulk: continuous N(0.25, 1)
    assert stats.kstest(samples, stats.norm(loc=0.25, scale=1.0).cdf).pvalue > SIGNIFICANCE


def test_z2k_coarse_grid_is_a_shifted_discrete_gaussian():
    # k = 1: grid 2Z; 2.9 rounds to index 1 (2.9 / 2 + 1/2 = 1.95); scale 6 is 3 grid steps
    sampler = discrete_gaussian_Z2k_sampler(Fraction(6), 1, "f32")
    samples = sampler(entropy_source(), [2.9] * N)
    indices = np.array([int(v) // 2 - 1 for v in samples])
    assert all(float(v) % 2 == 0 for v in samples[:100])
    _fits(indices, 3.0)


def test_z2k_zero_scale_rounds_only():
    sampler = discrete_gaussian_Z2k_sampler(Fraction(0), 2, "f64")
    assert sampler(entropy_source(), [5.0, 6.0, -1.9]) == [4.0, 8.0, 0.0]


def test_z2k_public_entry():
    assert sample_discrete_gaussian_Z2k(1.0, 0, 0, "f64") == 1.0
    assert isinstance(sample_discrete_gaussian_Z2k(1.0, 1.0, -10, "f32"), float)


@pytest.mark.parametrize(
    "call, parameter",
    [
        (lambda: sample_discrete_gaussian(-1), "scale"),
        (lambda: sample_discrete_gaussian(float("nan")), "scale"),
        (lambda: sample_discrete_gaussian(float("inf")), "scale"),
        (lambda: sample_discrete_gaussian(True), "scale"),
        (lambda: sample_discrete_gaussian("1"), "scale"),
        (lambda: sample_discrete_gaussian_Z2k(1.0, -1, 0), "scale"),
        (lambda: sample_discrete_gaussian_Z2k(float("inf"), 1, 0), "shift"),
        (lambda: sample_discrete_gaussian_Z2k(1.0, 1, 0.5), "k"),
        (lambda: sample_discrete_gaussian_Z2k(1.0, 1, 0, "f16"), "T"),
    ],
)
def test_bad_sampler_arguments_raise_typed_errors(call, parameter):
    with pytest.raises(FailedFunctionError) as raised:
        call()
    assert raised.value.parameter == parameter


# Float scales: their squares have denominators of about 2^110, so an exponent computed from a
# rounded variance (limit_denominator, a float) differs from the exact one.
FLOAT_SCALES = [Fraction(0.3), Fraction(0.7), Fraction(0.1 * 1024), Fraction(1e-3), Fraction(7.1)]


def _exact_exponent(scale: Fraction, y: int) -> Fraction:
    t = int(scale) + 1
    return (abs(y) - scale**2 / t) ** 2 / (2 * scale**2)


@pytest.mark.parametrize("scale", FLOAT_SCALES)
def test_acceptance_exponent_is_exact_for_float_scales(scale):
    assert scale.denominator > 2**20  # a float scale, not a small rational
    t, d, n = dg.acceptance_exponent(scale)
    assert t == int(scale) + 1
    for y in [*range(-5, 6), int(scale), int(scale) + 1, 10 * int(scale) + 3, 10**6]:
        assert Fraction(n(y), d) == _exact_exponent(scale, y)


@pytest.mark.parametrize("scale", FLOAT_SCALES)
def test_sequential_sampler_tests_the_exact_ratio_for_float_scales(monkeypatch, scale):
    proposals, trials = [], []
    real_laplace, real_bernoulli = dg.discrete_laplace_sampler, dg.bernoulli_exp_ratio

    def laplace(proposal_scale):
        sampler = real_laplace(proposal_scale)

        def recorded(source):
            proposals.append(sampler(source))
            return proposals[-1]

        return recorded

    def bernoulli(source, numerator, denominator):
        trials.append((numerator, denominator))
        return real_bernoulli(source, numerator, denominator)

    monkeypatch.setattr(dg, "discrete_laplace_sampler", laplace)
    monkeypatch.setattr(dg, "bernoulli_exp_ratio", bernoulli)
    sampler, source = dg.discrete_gaussian_sampler(scale), entropy_source()
    for _ in range(200):
        sampler(source)
    assert len(proposals) == len(trials) >= 200
    for y, (numerator, denominator) in zip(proposals, trials):
        assert Fraction(numerator, denominator) == _exact_exponent(scale, y)


@pytest.mark.parametrize("scale", FLOAT_SCALES)
def test_batch_thresholds_are_the_exact_exponents_for_float_scales(monkeypatch, scale):
    """Every acceptance path of the batch (64-digit thresholds, exact Bernoulli trials when
    the proposals are Python integers, the split's bucket bounds and exact tests) compares with
    exp(-n/d) for the exact n/d of a magnitude."""
    calls = []
    real_digits, real_bernoulli = dg.exp_neg_digits, dg.bernoulli_exp_ratio

    def digits(numerator, denominator, count):
        calls.append((numerator, denominator))
        return real_digits(numerator, denominator, count)

    def bernoulli(source, numerator, denominator):
        calls.append((numerator, denominator))
        return real_bernoulli(source, numerator, denominator)

    def bounds(numerator, denominator, count):
        calls.append((numerator, denominator))
        return real_bounds(numerator, denominator, count)

    def accept(source, prefix, numerator, denominator):
        calls.append((numerator, denominator))
        return real_accept(source, prefix, numerator, denominator)

    import certdp.samplers.discrete_gaussian_split as split_module

    real_bounds, real_accept = split_module.exp_neg_bounds, split_module.accept_gaussian
    monkeypatch.setattr(dg, "exp_neg_digits", digits)
    monkeypatch.setattr(dg, "bernoulli_exp_ratio", bernoulli)
    monkeypatch.setattr(split_module, "exp_neg_bounds", bounds)  # the split path (t >= 93)
    monkeypatch.setattr(split_module, "accept_gaussian", accept)
    draws = dg.discrete_gaussian_batch_sampler(scale)(entropy_source(), 2_000)
    assert len(draws) == 2_000 and calls
    exact = {_exact_exponent(scale, m) for m in range(0, 20 * (int(scale) + 1) + 400)}
    for numerator, denominator in calls:
        assert Fraction(numerator, denominator) in exact


@pytest.mark.parametrize("scale", FLOAT_SCALES)
@pytest.mark.parametrize("k", [-1074, -3, 0, 2])
def test_z2k_sampler_draws_at_the_exact_grid_scale(monkeypatch, scale, k):
    import certdp.samplers.discrete_gaussian_z2k as z2k

    seen = []
    real, real_split = z2k.discrete_gaussian_batch_sampler, z2k.split_gaussian
    monkeypatch.setattr(z2k, "discrete_gaussian_batch_sampler", lambda s: seen.append(s) or real(s))
    monkeypatch.setattr(z2k, "split_gaussian", lambda s, e: seen.append(s) or real_split(s, e))
    discrete_gaussian_Z2k_sampler(scale, k, "f64")
    assert seen == [scale / Fraction(2) ** k]


@pytest.mark.parametrize("scale", [0.3, 0.7, 0.1 * 1024])
def test_make_gaussian_hands_the_sampler_the_float_scale_exactly(monkeypatch, scale):
    import importlib

    import certdp.prelude as dp

    module = importlib.import_module("certdp.measurements.gaussian.make_gaussian")
    seen = []
    real_float, real_int = (
        module.discrete_gaussian_Z2k_sampler,
        module.discrete_gaussian_batch_sampler,
    )
    monkeypatch.setattr(
        module,
        "discrete_gaussian_Z2k_sampler",
        lambda s, k, T: seen.append(s) or real_float(s, k, T),
    )
    monkeypatch.setattr(
        module, "discrete_gaussian_batch_sampler", lambda s: seen.append(s) or real_int(s)
    )
    dp.enable_features("contrib")
    float_space = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")
    int_space = dp.atom_domain(T="i32"), dp.absolute_distance(T="i32")
    dp.m.make_gaussian(*float_space, scale)
    dp.m.make_gaussian(*int_space, scale)
    assert seen == [Fraction(scale), Fraction(scale)]
