"""The measures of zCDP and approximate DP, and privacy profiles (OpenDP 0.16 names)."""

from __future__ import annotations

import math

import pytest

import certdp.prelude as dp
from certdp.core.errors import FailedMapError, MeasureMismatchError


def test_names_and_equality_follow_opendp():
    assert repr(dp.zero_concentrated_divergence()) == "ZeroConcentratedDivergence"
    assert repr(dp.smoothed_max_divergence()) == "SmoothedMaxDivergence"
    assert repr(dp.approximate(dp.max_divergence())) == "Approximate(MaxDivergence)"
    assert dp.approximate(dp.max_divergence()) == dp.approximate(dp.max_divergence())
    assert dp.approximate(dp.max_divergence()) != dp.approximate(dp.zero_concentrated_divergence())
    assert dp.approximate(dp.max_divergence()) != dp.max_divergence()
    assert dp.zero_concentrated_divergence() != dp.max_divergence()
    assert dp.zero_concentrated_divergence().distance_type == "f64"
    assert dp.approximate(dp.max_divergence()).distance_type == "(f64, f64)"
    assert len({dp.approximate(dp.max_divergence()), dp.approximate(dp.max_divergence())}) == 1


def test_approximate_refuses_a_non_measure():
    with pytest.raises(MeasureMismatchError) as raised:
        dp.approximate("MaxDivergence")
    assert raised.value.parameter == "measure"


def test_approximate_orders_pairs_by_product_order():
    order = dp.approximate(dp.max_divergence()).ordered
    assert order((1.0, 1e-7), (1.0, 1e-6))
    assert not order((1.0, 1e-5), (2.0, 1e-6))
    assert not order((3.0, 1e-7), (2.0, 1e-6))


def test_privacy_profile_epsilon_is_a_point_where_the_curve_holds():
    curve = dp.PrivacyProfile(lambda epsilon: math.exp(-epsilon))
    epsilon = curve.epsilon(1e-3)
    assert curve.delta(epsilon) <= 1e-3
    # the bisection ends where the next float below no longer meets delta
    assert curve.delta(math.nextafter(epsilon, 0) - 1e-12) > 1e-3
    assert curve.epsilon(1.0) == 0.0
    assert curve.epsilon(1e-300) <= 700


def test_privacy_profile_infinite_epsilon_when_no_epsilon_suffices():
    assert dp.PrivacyProfile(lambda epsilon: 0.5).epsilon(0.1) == math.inf


@pytest.mark.parametrize("delta", [-0.1, 1.5, float("nan"), -0.0, "0.1", True])
def test_privacy_profile_refuses_bad_delta(delta):
    with pytest.raises(FailedMapError) as raised:
        dp.PrivacyProfile(lambda epsilon: 0.0).epsilon(delta)
    assert raised.value.parameter == "delta"


@pytest.mark.parametrize("epsilon", [-1.0, float("nan"), None])
def test_privacy_profile_refuses_bad_epsilon(epsilon):
    with pytest.raises(FailedMapError) as raised:
        dp.PrivacyProfile(lambda e: 0.0).delta(epsilon)
    assert raised.value.parameter == "epsilon"


def test_the_renyi_cross_check_sums_around_the_mixture_centre():
    """Regression: for order 2 the summand peaks at 2c - c', beyond both centres; a window
    around the centres alone missed half its mass and reported a false violation."""
    from fractions import Fraction

    import mpmath

    from certdp.measurements._gaussian.contract_support import _cross_check, _renyi_numeric

    _cross_check(2147483647, 2147483587, Fraction(1, 2))  # raised ContractError before
    with mpmath.workdps(60):
        d2 = _renyi_numeric(2, 2147483647, 2147483587, Fraction(1, 2))
        assert abs(d2 - 14400) < mpmath.mpf(10) ** -30
