"""make_pureDP_to_zCDP, make_zCDP_to_approxDP and make_fix_delta: maps, bad inputs, contracts,
and the issue's reference value."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import certdp.prelude as dp
from certdp.combinators._conversion import cdp_delta, inf_exp, inf_ln_1p
from certdp.combinators._support.contract_support import mp_cdp_delta
from certdp.combinators.fix_delta.contract import CONTRACT as FIX_CONTRACT
from certdp.combinators.pureDP_to_zCDP.contract import CONTRACT as PURE_CONTRACT
from certdp.combinators.zCDP_to_approxDP.contract import CONTRACT as PROFILE_CONTRACT
from certdp.core.errors import ContractError, FailedMapError, MakeMeasurementError

ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")
VECTOR = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.l2_distance(T="f64")


def test_issue_reference_value():
    """zCDP -> (epsilon, delta) of an f64 vector Gaussian, scale 2, d_in 1, delta 1e-6."""
    profile = dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*VECTOR, 2.0))
    assert profile.output_measure == dp.smoothed_max_divergence()
    assert profile.map(1.0).epsilon(1e-6) == 2.4190931768671953
    fixed = dp.c.make_fix_delta(profile, 1e-6)
    assert fixed.output_measure == dp.approximate(dp.max_divergence())
    assert fixed.map(1.0) == (2.4190931768671953, 1e-6)
    assert fixed.check(1.0, (2.42, 1e-6)) and not fixed.check(1.0, (2.41, 1e-6))


def test_pure_to_zcdp():
    laplace = dp.m.make_laplace(*ATOM, 1.0)
    converted = dp.c.make_pureDP_to_zCDP(laplace)
    assert converted.output_measure == dp.zero_concentrated_divergence()
    assert converted.map(1.0) == 0.5
    value = dp.c.make_pureDP_to_zCDP(dp.m.make_laplace(*ATOM, 3.0)).map(1.0)
    epsilon = Fraction(dp.m.make_laplace(*ATOM, 3.0).map(1.0))  # 1/3 rounded up
    assert Fraction(value) >= epsilon**2 / 2 > Fraction(math.nextafter(value, 0))
    assert dp.c.make_pureDP_to_zCDP(dp.m.make_laplace(*ATOM, 0.0)).map(1.0) == math.inf
    assert dp.c.make_pureDP_to_zCDP(dp.m.make_laplace(*ATOM, 1e-300)).map(1.0) == math.inf
    assert isinstance(converted(1.0), float)


def test_cdp_delta_edge_cases():
    assert cdp_delta(0.0, 1.0) == 0.0
    assert cdp_delta(1.0, math.inf) == 0.0
    assert cdp_delta(math.inf, 1.0) == 1.0
    assert cdp_delta(100.0, 0.0) == 1.0
    for rho, epsilon in [(-1.0, 1.0), (-0.0, 1.0), (math.nan, 1.0), (1.0, -0.0), (1.0, math.nan)]:
        with pytest.raises(FailedMapError):
            cdp_delta(rho, epsilon)


@pytest.mark.parametrize(
    "rho, epsilon",
    [
        (0.125, 2.4190931768671953),
        (0.5, 0.01),
        (0.5, 5.0),
        (2.0, 1.0),
        (1e-6, 0.01),
        (1e-9, 1e-3),
        (50.0, 400.0),
        (1e-300, 1.0),
        (1e300, 1.0),
        (0.01, 1e300),
    ],
)
def test_cdp_delta_is_never_below_the_exact_bound(rho, epsilon):
    assert cdp_delta(rho, epsilon) >= mp_cdp_delta(rho, epsilon)
    assert 0.0 <= cdp_delta(rho, epsilon) <= 1.0


def test_directed_elementary_functions():
    for x in [0.5, -3.0, 1e-300, 700.0, -745.0]:
        value = inf_exp(x)
        assert value >= math.exp(x) and math.nextafter(value, 0) < math.exp(x) * (1 + 1e-15)
    assert inf_exp(0.0) == 1.0 and inf_ln_1p(0.0) == 0.0
    assert inf_ln_1p(-0.25) >= math.log1p(-0.25)
    import mpmath

    with mpmath.workdps(50):
        for x in [0.5, -0.25, 1e-10, -0.999]:
            exact = mpmath.log1p(mpmath.mpf(x))
            value = inf_ln_1p(x)
            assert mpmath.mpf(value) >= exact > mpmath.mpf(math.nextafter(value, -math.inf))


@pytest.mark.parametrize(
    "constructor, argument, message",
    [
        (dp.c.make_pureDP_to_zCDP, "not a measurement", "must be a measurement"),
        (dp.c.make_pureDP_to_zCDP, "gaussian", "MaxDivergence"),
        (dp.c.make_zCDP_to_approxDP, 3, "must be a measurement"),
        (dp.c.make_zCDP_to_approxDP, "laplace", "ZeroConcentratedDivergence"),
    ],
)
def test_bad_measurements(constructor, argument, message):
    argument = {
        "gaussian": dp.m.make_gaussian(*ATOM, 1.0),
        "laplace": dp.m.make_laplace(*ATOM, 1.0),
    }.get(argument, argument)
    with pytest.raises(MakeMeasurementError, match=message) as error:
        constructor(argument)
    assert error.value.parameter == "measurement"


@pytest.mark.parametrize(
    "delta, message",
    [
        (-0.1, "lie in"),
        (1.5, "lie in"),
        (math.nan, "lie in"),
        (True, "number"),
        ("1e-6", "number"),
        (None, "number"),
    ],
)
def test_fix_delta_bad_delta(delta, message):
    profile = dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*ATOM, 1.0))
    with pytest.raises(MakeMeasurementError, match=message) as error:
        dp.c.make_fix_delta(profile, delta)
    assert error.value.parameter == "delta"


def test_fix_delta_needs_a_profile():
    with pytest.raises(MakeMeasurementError, match="SmoothedMaxDivergence"):
        dp.c.make_fix_delta(dp.m.make_gaussian(*ATOM, 1.0), 1e-6)


def test_fix_delta_edge_values():
    profile = dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*ATOM, 1.0))
    assert dp.c.make_fix_delta(profile, 1.0).map(1.0) == (0.0, 1.0)
    assert dp.c.make_fix_delta(profile, 0.0).map(1.0) == (math.inf, 0.0)
    assert dp.c.make_fix_delta(profile, 1e-6).map(0.0) == (0.0, 1e-6)


def test_contracts_hold():
    assert PURE_CONTRACT.verify().examples > 0
    assert PROFILE_CONTRACT.verify(max_examples=30).examples > 0
    assert FIX_CONTRACT.verify(max_examples=30).examples > 0


def test_runtime_enforcement():
    dp.enable_contracts()
    gaussian = dp.m.make_gaussian(*VECTOR, 2.0)
    profile = dp.c.make_zCDP_to_approxDP(gaussian)
    profile.map(1.0)  # checked against mpmath at run time
    wrong = dp.PrivacyProfile(lambda epsilon: cdp_delta(0.125, epsilon) / 2)
    profile._map = lambda d_in: wrong
    with pytest.raises(ContractError) as error:
        profile.map(1.0)
    assert error.value.condition == "privacy-map"
    pure = dp.c.make_pureDP_to_zCDP(dp.m.make_laplace(*ATOM, 1.0))
    pure._map = lambda d_in: 0.25  # below epsilon^2 / 2 = 0.5
    with pytest.raises(ContractError):
        pure.map(1.0)
    fixed = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gaussian), 1e-6)
    assert fixed.map(1.0) == (2.4190931768671953, 1e-6)
    fixed._map = lambda d_in: (2.0, 1e-6)
    with pytest.raises(ContractError):
        fixed.map(1.0)
    with pytest.raises(ContractError) as error:
        dp.c.make_fix_delta(profile, 2.0)
    assert error.value.condition == "delta-in-unit-interval"
