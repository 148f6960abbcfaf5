"""make_approximate and make_fixed_approxDP_to_approxDP: OpenDP 0.16's numbers, bad inputs,
contracts (and a refuted wrong map), runtime enforcement."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.combinators.approximate.contract import CONTRACT as APPROXIMATE_CONTRACT
from certdp.combinators.fixed_approxDP_to_approxDP.contract import CONTRACT as FIXED_CONTRACT
from certdp.contracts.contract import PrivacyViolation
from certdp.contracts.smt_code import stub_measurement
from certdp.core.errors import ContractError, FailedMapError, MakeMeasurementError

ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")


def test_approximate_pure_and_zcdp_as_opendp():
    """OpenDP 0.16: make_approximate(laplace scale 1).map(1.0) == (1.0, 0.0), map(0.5) ==
    (0.5, 0.0); of a Gaussian of scale 1 (zCDP), (0.5, 0.0)."""
    laplace = dp.m.make_laplace(*ATOM, scale=1.0)
    approximate = dp.c.make_approximate(laplace)
    assert approximate.output_measure == dp.approximate(dp.max_divergence())
    assert approximate.map(1.0) == (1.0, 0.0) and approximate.map(0.5) == (0.5, 0.0)
    assert approximate.input_space == laplace.input_space
    assert isinstance(approximate(3.0), float)
    assert approximate.check(1.0, (1.0, 0.0)) and not approximate.check(1.0, (0.99, 1.0))
    gaussian = dp.c.make_approximate(dp.m.make_gaussian(*ATOM, scale=1.0))
    assert gaussian.output_measure == dp.approximate(dp.zero_concentrated_divergence())
    assert gaussian.map(1.0) == (0.5, 0.0)


def test_approximate_keeps_exact_losses():
    for loss in (0, 3, Fraction(1, 3), math.inf, 5e-324):
        built = dp.c.make_approximate(stub_measurement(loss, dp.max_divergence()))
        value, delta = built.map(1.0)
        assert value == loss and type(value) is type(loss) and delta == 0.0


@pytest.mark.parametrize(
    "argument, message",
    [
        (3, "must be a measurement"),
        ("approximate", "MaxDivergence or ZeroConcentratedDivergence"),
        ("profile", "MaxDivergence or ZeroConcentratedDivergence"),
    ],
)
def test_approximate_bad_measurements(argument, message):
    gaussian = dp.m.make_gaussian(*ATOM, 1.0)
    argument = {
        "approximate": dp.c.make_approximate(gaussian),
        "profile": dp.c.make_zCDP_to_approxDP(gaussian),
    }.get(argument, argument)
    with pytest.raises(MakeMeasurementError, match=message) as error:
        dp.c.make_approximate(argument)
    assert error.value.parameter == "measurement"


def test_approximate_refuses_a_subclass_of_a_measure():
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")
    from certdp.core.frozen import SealedClassError, _FreezeOnBuild

    with pytest.raises(SealedClassError):  # the class statement itself (MaxDivergence is sealed)

        class Other(dp.MaxDivergence):
            pass

    class Meta(_FreezeOnBuild):  # a subclass made past that refusal
        def __new__(mcls, name, bases, namespace, **kwargs):
            return type.__new__(mcls, name, bases, namespace)

        def __init__(cls, *args, **kwargs):
            pass

    smuggled = Meta("Other", (dp.MaxDivergence,), {})
    with pytest.raises(MakeMeasurementError):
        dp.c.make_approximate(stub_measurement(1.0, smuggled()))


def _fixed_gaussian():
    gaussian = dp.m.make_gaussian(*ATOM, scale=1.0)
    return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gaussian), 1e-6)


def test_fixed_profile_as_opendp():
    """OpenDP 0.16 on fix_delta(zCDP_to_approxDP(gaussian scale 1), 1e-6) at d_in 1:
    (5.22153444453017, 1e-06); the profile's delta is 1 below epsilon0 and 1e-06 from it on;
    epsilon(0) = epsilon(1e-7) = inf, epsilon(1e-6) = epsilon(0.5) = 5.22153444453017,
    epsilon(1) = 0."""
    inner = _fixed_gaussian()
    assert inner.map(1.0) == (5.22153444453017, 1e-06)
    built = dp.c.make_fixed_approxDP_to_approxDP(inner)
    assert built.output_measure == dp.smoothed_max_divergence()
    profile = built.map(1.0)
    epsilon0 = 5.22153444453017
    below, above = math.nextafter(epsilon0, 0), math.nextafter(epsilon0, 10)
    expected = {0.0: 1.0, below: 1.0, epsilon0: 1e-6, above: 1e-6, 100.0: 1e-6, math.inf: 1e-6}
    assert {e: profile.delta(e) for e in expected} == expected
    assert [profile.epsilon(d) for d in (0.0, 1e-7, 1e-6, 0.5, 1.0)] == [
        math.inf,
        math.inf,
        epsilon0,
        epsilon0,
        0.0,
    ]
    # fix_delta after the cast reads the same pair back
    assert dp.c.make_fix_delta(built, 1e-6).map(1.0) == (epsilon0, 1e-6)


def test_fixed_profile_of_a_pure_measurement_as_opendp():
    """OpenDP 0.16: approximate(laplace scale 1) cast, d_in 1: delta 1 at 0, 0.5 and 0.99,
    0 at 1 and 2; epsilon(0) = epsilon(0.1) = 1, epsilon(1) = 0."""
    inner = dp.c.make_approximate(dp.m.make_laplace(*ATOM, scale=1.0))
    profile = dp.c.make_fixed_approxDP_to_approxDP(inner).map(1.0)
    assert [profile.delta(e) for e in (0.0, 0.5, 0.99, 1.0, 2.0)] == [1.0, 1.0, 1.0, 0.0, 0.0]
    assert [profile.epsilon(d) for d in (0.0, 0.1, 1.0)] == [1.0, 1.0, 0.0]


def test_fixed_profile_compares_exactly():
    inner = stub_measurement((Fraction(1, 3), Fraction(1, 10)), dp.approximate(dp.max_divergence()))
    profile = dp.c.make_fixed_approxDP_to_approxDP(inner).map(1.0)
    third = 1 / 3  # the float just below 1/3
    assert third < Fraction(1, 3)
    assert profile.delta(third) == 1.0 and profile.delta(Fraction(1, 3)) == Fraction(1, 10)
    assert profile.delta(math.nextafter(third, 1)) == Fraction(1, 10)


def test_fixed_profile_numpy_float_against_int_epsilon0_is_exact():
    """Referee counterexample: a NumPy float passes the boundary before the curve compares it,
    so 2**53 < 2**53 + 1 is seen (numpy's own comparison rounds the int to 2**53)."""
    inner = stub_measurement((2**53 + 1, 1e-9), dp.approximate(dp.max_divergence()))
    profile = dp.c.make_fixed_approxDP_to_approxDP(inner).map(1)
    e = np.float64(2.0**53)
    assert Fraction(float(e)) < 2**53 + 1
    assert profile.delta(e) == 1.0
    assert profile.delta(np.float64(2.0**54)) == 1e-9
    assert profile.delta(np.int64(2**53 + 1)) == 1e-9  # equal: from epsilon0 on


def test_fixed_profile_numpy_float_against_huge_int_epsilon0_is_typed_or_exact():
    """Referee counterexample: epsilon0 = 10**400 against np.float64(1.0) raised an untyped
    OverflowError inside numpy's comparison; it is now compared exactly."""
    inner = stub_measurement((10**400, 1e-9), dp.approximate(dp.max_divergence()))
    profile = dp.c.make_fixed_approxDP_to_approxDP(inner).map(1)
    assert profile.delta(np.float64(1.0)) == 1.0
    assert profile.delta(np.float64(math.inf)) == 1e-9


@pytest.mark.parametrize("bad", [np.bool_(True), np.float64(math.nan), np.float64(-1.0), "1"])
def test_profile_delta_refuses_numpy_non_distances(bad):
    inner = stub_measurement((1.0, 1e-9), dp.approximate(dp.max_divergence()))
    profile = dp.c.make_fixed_approxDP_to_approxDP(inner).map(1)
    with pytest.raises(FailedMapError) as error:
        profile.delta(bad)
    assert error.value.parameter == "epsilon"


def test_profile_epsilon_takes_a_numpy_delta_exactly():
    inner = stub_measurement((1.0, 1e-9), dp.approximate(dp.max_divergence()))
    profile = dp.c.make_fixed_approxDP_to_approxDP(inner).map(1)
    assert profile.epsilon(np.float64(1e-9)) == profile.epsilon(1e-9) == 1.0
    assert profile.epsilon(np.float32(1e-9)) == math.inf  # float32(1e-9) < 1e-9 exactly
    with pytest.raises(FailedMapError):
        profile.epsilon(np.bool_(False))


@pytest.mark.parametrize(
    "pair",
    [(1.0,), (1.0, 2.0, 3.0), [1.0, 0.0], (math.nan, 0.0), (1.0, math.nan), (-1.0, 0.0),
     (1.0, -0.5), ("1", 0.0), (True, 0.0)],
)  # fmt: skip
def test_fixed_profile_refuses_a_bad_inner_pair(pair):
    inner = stub_measurement(pair, dp.approximate(dp.max_divergence()))
    built = dp.c.make_fixed_approxDP_to_approxDP(inner)
    with pytest.raises(FailedMapError):
        built.map(1.0)


@pytest.mark.parametrize("argument", [3, "laplace", "gaussian", "profile", "approx-zcdp"])
def test_fixed_profile_bad_measurements(argument):
    laplace = dp.m.make_laplace(*ATOM, 1.0)
    gaussian = dp.m.make_gaussian(*ATOM, 1.0)
    argument = {
        "laplace": laplace,
        "gaussian": gaussian,
        "profile": dp.c.make_zCDP_to_approxDP(gaussian),
        "approx-zcdp": dp.c.make_approximate(gaussian),
    }.get(argument, argument)
    with pytest.raises(MakeMeasurementError) as error:
        dp.c.make_fixed_approxDP_to_approxDP(argument)
    assert error.value.parameter == "measurement"


def test_contracts_hold():
    assert APPROXIMATE_CONTRACT.verify(max_examples=40).examples > 0
    assert FIXED_CONTRACT.verify(max_examples=40).examples > 0


def test_wrong_maps_are_refuted():
    with pytest.raises(PrivacyViolation):  # the inner loss halved
        APPROXIMATE_CONTRACT.verify(max_examples=200, map_override=lambda d_in: (d_in / 8, 0.0))
    # a profile that drops the step: delta0 below epsilon0 too
    wrong = dp.PrivacyProfile(lambda e: 1e-300)
    with pytest.raises(PrivacyViolation):
        FIXED_CONTRACT.verify(max_examples=200, map_override=lambda d_in: wrong)


def test_runtime_enforcement():
    dp.enable_contracts()
    approximate = dp.c.make_approximate(dp.m.make_laplace(*ATOM, 1.0))
    assert approximate.map(1.0) == (1.0, 0.0)
    approximate._map = lambda d_in: (0.5, 0.0)
    with pytest.raises(ContractError) as error:
        approximate.map(1.0)
    assert error.value.condition == "privacy-map"
    fixed = dp.c.make_fixed_approxDP_to_approxDP(_fixed_gaussian())
    assert fixed.map(1.0).delta(0.0) == 1.0
    fixed._map = lambda d_in: dp.PrivacyProfile(lambda e: 5e-7)  # below delta0 everywhere
    with pytest.raises(ContractError) as error:
        fixed.map(1.0)
    assert error.value.condition == "privacy-map"
    with pytest.raises(ContractError) as error:
        dp.c.make_fixed_approxDP_to_approxDP(dp.m.make_laplace(*ATOM, 1.0))
    assert error.value.condition == "measurement-approximate-dp"
