"""The noise tests on deterministic draws: the exact quantiles of a law (no randomness, so no
flaky test).  Draws of the right law pass; a 1 % bias of the scale is rejected at the sample
size the check uses; a 10 % bias is rejected by all three tests."""

import math

import numpy as np
import pytest

from certdp.crosscheck.noise import ALPHA, check_noise, moments, sample_size
from certdp.crosscheck.twins import Noise


def _laplace_quantiles(scale: float, n: int, integer: bool) -> np.ndarray:
    u = (np.arange(n) + 0.5) / n
    if not integer:
        return np.where(u < 0.5, scale * np.log(2 * u), -scale * np.log(2 * (1 - u)))
    q = math.exp(-1 / scale)
    negative = -np.floor(np.log(u * (1 + q)) / math.log(q))
    positive = np.maximum(0, np.ceil(np.log((1 - u) * (1 + q)) / math.log(q)) - 1)
    return np.where(u <= q / (1 + q), negative, positive)


def _gaussian_quantiles(scale: float, n: int) -> np.ndarray:
    from statistics import NormalDist

    normal = NormalDist(0, scale)
    return np.array([normal.inv_cdf((i + 0.5) / n) for i in range(n)])


def _sampler(values):
    shuffled = np.random.default_rng(0).permutation(values)  # order does not matter to the tests
    return lambda zeros: [float(v) for v in shuffled[: len(zeros)]]


@pytest.mark.parametrize("integer", [True, False])
def test_laplace_draws_of_the_right_law_pass(integer):
    noise = Noise("laplace", "i32" if integer else "f64", 3.5, "", 0 if integer else -1074)
    result = check_noise(_sampler(_laplace_quantiles(3.5, 50_000, integer)), noise, 50_000)
    assert result.rejected == [], result.p_values


def test_gaussian_draws_of_the_right_law_pass():
    noise = Noise("gaussian", "f64", 3.5, "", -1074)
    result = check_noise(_sampler(_gaussian_quantiles(3.5, 50_000)), noise, 50_000)
    assert result.rejected == [], result.p_values


@pytest.mark.parametrize("integer", [True, False])
def test_a_one_percent_bias_is_rejected_at_the_full_sample_size(integer):
    h = 1.0 if integer else 2.0**-1074
    n = sample_size("laplace", 3.5, h)
    assert 300_000 < n < 450_000  # (z_{1-alpha/2} + z_{0.9})^2 / 0.01^2 for mean |X|
    noise = Noise("laplace", "i32" if integer else "f64", 3.5, "", 0 if integer else -1074)
    result = check_noise(_sampler(_laplace_quantiles(3.5 * 1.01, n, integer)), noise, n)
    assert "scale" in result.rejected, result.p_values


def test_a_ten_percent_bias_is_rejected_by_every_test():
    noise = Noise("laplace", "i32", 3.5, "", 0)
    result = check_noise(_sampler(_laplace_quantiles(3.85, 50_000, True)), noise, 50_000)
    assert set(result.rejected) == {"chi-square", "ks", "scale"}, result.p_values
    assert all(p < ALPHA for p in result.p_values.values())


def test_exact_moments_of_the_discrete_laplace():
    q = math.exp(-1 / 2.0)
    mean, variance = moments("laplace", 2.0, 1.0)
    # E|Z| = sum_k |k| P(k), checked by direct summation
    c = (1 - q) / (1 + q)
    direct = sum(abs(k) * c * q ** abs(k) for k in range(-400, 401))
    assert mean == pytest.approx(direct, rel=1e-12)
    second = sum(k * k * c * q ** abs(k) for k in range(-400, 401))
    assert variance == pytest.approx(second - direct**2, rel=1e-12)
