"""make_report_noisy_max_gumbel's noise point tells "max" from "min": its scores differ, so a
target that released the minimum would draw index 1 with another probability and be rejected
(equal scores give 1/2 whichever way ``optimize`` is read)."""

import math

import certdp.prelude as dp
from certdp.crosscheck.noise import QUICK_SAMPLES, check_noise
from certdp.crosscheck.target import load_target
from certdp.crosscheck.twins import twin_points


def _noise_point():
    (point,) = [p for p in twin_points("make_report_noisy_max_gumbel", True) if p.noise]
    return point.noise


def _draws(probability: float, n: int):
    ones = round(probability * n)  # exact proportions: no randomness in the test
    return lambda zeros: ([1] * ones + [0] * (n - ones))[: len(zeros)]


def test_the_point_expects_the_maximum_of_unequal_scores():
    noise = _noise_point()
    assert "m([1, 0])" in noise.sampler
    assert noise.kind == "bernoulli" and math.isclose(noise.scale, math.exp(-1) / 2)


def test_draws_of_the_minimum_are_rejected_and_of_the_maximum_pass():
    noise, n = _noise_point(), QUICK_SAMPLES
    assert check_noise(_draws(math.exp(-1) / 2, n), noise, n).rejected == []
    assert check_noise(_draws(1 - math.exp(-1) / 2, n), noise, n).rejected


def test_certdp_own_measurement_passes_the_point():
    dp.enable_features("contrib")
    noise = _noise_point()
    sampler, _ = load_target("certdp.prelude").build(noise.sampler)
    assert check_noise(sampler, noise, QUICK_SAMPLES).rejected == []
