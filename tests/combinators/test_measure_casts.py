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
        (-0.0, "must not be negative"),
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


F64_MAX = 1.7976931348623157e308


def test_profile_of_an_infinite_rho_is_checked_as_delta_one():
    """Regression: the inner Gaussian map is +inf at a huge d_in (a sound answer); the profile
    is then delta = 1 everywhere and the contract's reference bound must accept +inf too (it
    turned +inf into a Fraction: OverflowError)."""
    dp.enable_features("contrib")
    gaussian = dp.m.make_gaussian(*ATOM, 0.5)
    assert gaussian.map(F64_MAX) == math.inf
    profile = dp.c.make_zCDP_to_approxDP(gaussian).map(F64_MAX)
    assert [profile.delta(epsilon) for epsilon in (0.0, 1.0, 1e300)] == [1.0, 1.0, 1.0]
    assert mp_cdp_delta(math.inf, 1.0) == 1 and mp_cdp_delta(0.0, 1.0) == 0
    dp.enable_contracts()  # the runtime check evaluates mp_cdp_delta(+inf, epsilon)
    assert dp.c.make_zCDP_to_approxDP(gaussian).map(F64_MAX).delta(2.0) == 1.0


@pytest.mark.parametrize("rho", [F64_MAX, F64_MAX / 1.005, math.nextafter(F64_MAX / 1.01, 0)])
def test_cdp_delta_near_the_top_of_the_f64_range(rho):
    """Regression: a * rho overflowed at the order's product (ArithmeticOverflowError out of a
    map); any rho this large gives delta = 1."""
    for epsilon in (0.0, 1.0, 1e300, F64_MAX):
        assert cdp_delta(rho, epsilon) == 1.0


def test_cdp_delta_of_exact_rationals():
    """Regression: PrivacyProfile.delta hands ints and Fractions to the curve; epsilon is
    rounded down and rho up (both only grow delta), never refused or overflowing."""
    from certdp.numeric import inf_cast, neg_inf_cast

    third = Fraction(1, 3)
    assert cdp_delta(0.5, third) == cdp_delta(0.5, neg_inf_cast(third))
    assert cdp_delta(third, 1.0) == cdp_delta(inf_cast(third), 1.0)
    assert cdp_delta(0.5, third) >= mp_cdp_delta(0.5, third)
    assert cdp_delta(0.5, 10**400) == cdp_delta(0.5, F64_MAX)
    assert cdp_delta(10**400, 1) == 1.0 and cdp_delta(0, 10**400) == 0.0
    profile = dp.PrivacyProfile(lambda epsilon: cdp_delta(0.5, epsilon))
    assert profile.delta(10**400) == cdp_delta(0.5, F64_MAX)
    assert profile.delta(third) == cdp_delta(0.5, neg_inf_cast(third))
    for rho, epsilon in [("1", 1.0), (1.0, True), (None, 1.0), (Fraction(-1, 3), 1.0), (1, -1)]:
        with pytest.raises(FailedMapError):
            cdp_delta(rho, epsilon)


@pytest.mark.parametrize("rho", [5e-324, 1e-320, 1e-300, 1e-40])
def test_reference_bound_for_subnormal_and_tiny_rho(rho):
    """Regression: the contract's mpmath reference closed its bracket (up to ~2^1075 wide)
    with 400 arithmetic halvings and took ln(1 - 1/a) at 80 digits where 1/a ~ 1e-162; it
    read 1.0 (then 7e-83) where the infimum is ~ e^(-1/2) sqrt(2 rho) for epsilon = 0."""
    import mpmath

    closed_form = mpmath.exp(-0.5) * mpmath.sqrt(2 * mpmath.mpf(rho))  # a = 1/sqrt(2 rho)
    reference = mp_cdp_delta(rho, 0.0)
    assert abs(reference / closed_form - 1) < 1e-6
    assert cdp_delta(rho, 0.0) >= reference
