"""make_zCDP_to_approxDP and make_fix_delta over Approximate(ZeroConcentratedDivergence):
OpenDP 0.16's numbers, the thresholded Gaussian of OpenDP's docs, bad inputs, contracts (and
refuted wrong maps), runtime enforcement."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.combinators._support.contract_support import approximate_zcdp_measurements
from certdp.combinators.fix_delta.contract import CONTRACT as FIX_CONTRACT
from certdp.combinators.fix_delta.contract import _converted
from certdp.combinators.zCDP_to_approxDP.contract import CONTRACT as PROFILE_CONTRACT
from certdp.contracts.contract import PrivacyViolation
from certdp.contracts.smt_code import stub_measurement
from certdp.core.errors import ContractError, FailedMapError, MakeMeasurementError
from certdp.numeric import inf_cast

APPROX_ZCDP = dp.approximate(dp.zero_concentrated_divergence())
APPROX_PROFILE = dp.approximate(dp.smoothed_max_divergence())
ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")

#: OpenDP 0.16's make_gaussian_threshold(map_domain(str -> int), l02inf_distance(absolute
#: float), scale=1.0, threshold=10).map((1, 1.0, 1.0)): (rho, delta).
OPENDP_PAIR = (0.5, 1.1102230246251565e-16)


def _threshold():
    return dp.m.make_gaussian_threshold(
        dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=int)),
        dp.l02inf_distance(dp.absolute_distance(T=float)),
        scale=1.0,
        threshold=10,
    )


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")
    yield


def test_the_gaussian_threshold_of_opendps_docs_converts():
    """OpenDP's thresholds page: zCDP_to_approxDP then fix_delta(1e-6) of the Gaussian
    threshold.  The profile is OpenDP's (rho = 0.5 in both: delta(1) = 0.24684633078294466);
    certdp's threshold delta is smaller than OpenDP's (1.0280542997713168e-18 against
    1.1102230246251565e-16, see the gaussian_threshold proof), so more of the 1e-6 is left to
    the profile and epsilon is 5.221534444530379 (OpenDP 0.16: 5.221534444552795)."""
    threshold = _threshold()
    assert threshold.map((1, 1.0, 1.0)) == (0.5, 1.0280542997713168e-18)
    converted = dp.c.make_zCDP_to_approxDP(threshold)
    assert converted.output_measure == APPROX_PROFILE
    profile, delta = converted.map((1, 1.0, 1.0))
    assert delta == 1.0280542997713168e-18
    assert profile.delta(1.0) == 0.24684633078294466
    assert profile.epsilon(1e-6) == 5.22153444453017  # OpenDP's profile, same digits
    fixed = dp.c.make_fix_delta(converted, 1e-6)
    assert fixed.output_measure == dp.approximate(dp.max_divergence())
    epsilon, total = fixed.map((1, 1.0, 1.0))
    assert (epsilon, total) == (5.221534444530379, 1e-6)
    # the profile's part and the threshold's part add up to at most the total, exactly
    assert Fraction(profile.delta(epsilon)) + Fraction(delta) <= Fraction(1e-6)
    assert isinstance(fixed({"a": 3, "b": 30}), dict)


def _opendp_pair_profile():
    return dp.c.make_zCDP_to_approxDP(stub_measurement(OPENDP_PAIR, APPROX_ZCDP))


@pytest.mark.parametrize(
    "delta, expected",
    [
        (1e-6, 5.221534444552795),
        (2.220446049250313e-16, 8.69368193879248),
        (1e-3, 3.5365618461689934),
        (1.0, 0.0),
    ],
)
def test_fix_delta_of_opendps_pair_as_opendp(delta, expected):
    """OpenDP 0.16, make_fix_delta(make_zCDP_to_approxDP(the Gaussian threshold above), delta)
    at (1, 1.0, 1.0), whose inner pair is OPENDP_PAIR: certdp over a measurement giving that
    pair returns the same (epsilon, delta)."""
    converted = _opendp_pair_profile()
    profile, inner_delta = converted.map(1.0)
    assert inner_delta == OPENDP_PAIR[1] and profile.delta(1.0) == 0.24684633078294466
    assert dp.c.make_fix_delta(converted, delta).map(1.0) == (expected, delta)


@pytest.mark.parametrize("delta", [1.1102230246251565e-16, 5.551115123125783e-17, 0.0])
def test_fix_delta_refuses_a_total_not_above_the_inner_delta(delta):
    """OpenDP 0.16 refuses these too ("delta (-0) must not be negative", ...)."""
    fixed = dp.c.make_fix_delta(_opendp_pair_profile(), delta)
    with pytest.raises(FailedMapError, match="must exceed the delta") as error:
        fixed.map(1.0)
    assert error.value.parameter == "delta"


def test_fix_delta_refuses_negative_zero_on_the_pair_route_at_construction():
    """OpenDP 0.16 raises "delta (-0) must not be negative" at map time; certdp when built."""
    with pytest.raises(MakeMeasurementError, match="must not be negative") as error:
        dp.c.make_fix_delta(_opendp_pair_profile(), -0.0)
    assert error.value.parameter == "delta"


def test_the_difference_is_rounded_down():
    """A profile that steps to RU(delta - fixed) at epsilon 1: reading it at the difference
    rounded up would answer epsilon = 1 with profile + fixed > delta; certdp reads it at the
    difference rounded down, never reaches the step and answers +inf."""
    delta, fixed = 1e-6, 1e-22
    exact = Fraction(delta) - Fraction(fixed)
    low = inf_cast(exact)
    assert Fraction(low) > exact  # the difference is not a float
    profile = dp.PrivacyProfile(lambda epsilon: low if epsilon >= 1 else 1.0)
    inner = stub_measurement((profile, fixed), APPROX_PROFILE)
    assert dp.c.make_fix_delta(inner, delta).map(1.0) == (math.inf, delta)
    # one float lower and the step is taken, exactly at the bound
    lower = dp.PrivacyProfile(lambda epsilon: math.nextafter(low, 0) if epsilon >= 1 else 1.0)
    inner = stub_measurement((lower, fixed), APPROX_PROFILE)
    epsilon, _ = dp.c.make_fix_delta(inner, delta).map(1.0)
    assert 1 <= epsilon <= 2
    assert Fraction(math.nextafter(low, 0)) + Fraction(fixed) <= Fraction(delta)


def test_an_exact_fraction_as_inner_delta():
    profile = dp.PrivacyProfile(lambda epsilon: 1e-7 if epsilon >= 1 else 1.0)
    inner = stub_measurement((profile, Fraction(1, 3) * Fraction(1, 10**6)), APPROX_PROFILE)
    epsilon, delta = dp.c.make_fix_delta(inner, 1e-6).map(1.0)
    assert delta == 1e-6 and 1 <= epsilon <= 2
    inner = stub_measurement((profile, Fraction(9, 10) * Fraction(1, 10**6)), APPROX_PROFILE)
    assert dp.c.make_fix_delta(inner, 1e-6).map(1.0) == (math.inf, 1e-6)


BAD_PAIRS = [(0.5,), (0.5, 0.0, 0.0), [0.5, 0.0], (0.5, math.nan), (0.5, -0.1), (0.5, 1.5),
             (0.5, "0"), (0.5, True), (0.5, None)]  # fmt: skip


@pytest.mark.parametrize("pair", BAD_PAIRS, ids=repr)
def test_zcdp_to_approx_refuses_a_bad_inner_pair(pair):
    built = dp.c.make_zCDP_to_approxDP(stub_measurement(pair, APPROX_ZCDP))
    with pytest.raises(FailedMapError) as error:
        built.map(1.0)
    assert error.value.parameter == "measurement"


@pytest.mark.parametrize("pair", BAD_PAIRS, ids=repr)
def test_fix_delta_refuses_a_bad_inner_pair(pair):
    profile = dp.PrivacyProfile(lambda epsilon: 0.0)
    shaped = tuple((profile, *pair[1:])) if type(pair) is tuple else [profile, *pair[1:]]
    built = dp.c.make_fix_delta(stub_measurement(shaped, APPROX_PROFILE), 1e-6)
    with pytest.raises(FailedMapError) as error:
        built.map(1.0)
    assert error.value.parameter == "measurement"


@pytest.mark.parametrize("measure", ["laplace approximate", "renyi"])
def test_zcdp_to_approx_refuses_other_measures(measure):
    inner = {
        "laplace approximate": dp.c.make_approximate(dp.m.make_laplace(*ATOM, 1.0)),
        "renyi": stub_measurement(1.0, dp.renyi_divergence()),
    }[measure]
    with pytest.raises(MakeMeasurementError, match="Approximate\\(ZeroConcentratedDivergence\\)"):
        dp.c.make_zCDP_to_approxDP(inner)


@pytest.mark.parametrize("measure", ["approximate zcdp", "approximate pure"])
def test_fix_delta_refuses_other_measures(measure):
    inner = {
        "approximate zcdp": _threshold(),
        "approximate pure": dp.c.make_approximate(dp.m.make_laplace(*ATOM, 1.0)),
    }[measure]
    with pytest.raises(MakeMeasurementError, match="Approximate\\(SmoothedMaxDivergence\\)") as e:
        dp.c.make_fix_delta(inner, 1e-6)
    assert e.value.parameter == "measurement"


def _pair_arguments(fixed=(1e-7, 5e-7)):
    """Only the Approximate case: a converted Gaussian stating ``fixed`` beside its rho."""

    @st.composite
    def arguments(draw):
        inner = draw(approximate_zcdp_measurements(draw(st.sampled_from(["f64", "i32"])), fixed))
        return {"measurement": _converted(inner), "delta": 1e-6}

    return arguments


def test_the_contracts_hold_in_the_approximate_case():
    profile = dataclasses.replace(
        PROFILE_CONTRACT,
        arguments=lambda: approximate_zcdp_measurements("f64").map(lambda m: {"measurement": m}),
    )
    assert profile.verify(max_examples=20).examples > 0
    fixed = dataclasses.replace(FIX_CONTRACT, arguments=_pair_arguments())
    assert fixed.verify(max_examples=20).examples > 0


def test_a_fix_delta_that_forgets_the_inner_delta_is_refuted():
    inner = approximate_zcdp_measurements("f64", (5e-7,))
    built = {}
    contract = dataclasses.replace(
        FIX_CONTRACT,
        arguments=lambda: inner.map(lambda m: {"measurement": _converted(m), "delta": 1e-6}),
        constructor=_recording(FIX_CONTRACT.constructor, built),
    )

    def forgetting(d_in):  # the profile read at the whole 1e-6
        profile = built["measurement"].map(d_in)[0]
        return profile.epsilon(1e-6), 1e-6

    with pytest.raises(PrivacyViolation):
        contract.verify(max_examples=100, map_override=forgetting)


def _recording(constructor, built):
    def construct(**kwargs):
        built.update(kwargs)
        return constructor(**kwargs)

    construct.__name__ = constructor.__name__
    return construct


def test_a_conversion_that_drops_the_inner_delta_is_refuted():
    inner = approximate_zcdp_measurements("f64", (1e-7,))
    contract = dataclasses.replace(
        PROFILE_CONTRACT, arguments=lambda: inner.map(lambda m: {"measurement": m})
    )
    built = {}
    contract = dataclasses.replace(contract, constructor=_recording(contract.constructor, built))

    def dropping(d_in):
        return dp.c.make_zCDP_to_approxDP(built["measurement"]).map(d_in)[0], 0.0

    with pytest.raises(PrivacyViolation):
        contract.verify(max_examples=50, map_override=dropping)


def test_runtime_enforcement():
    dp.enable_contracts()
    converted = dp.c.make_zCDP_to_approxDP(_threshold())
    profile, delta = converted.map((1, 1.0, 1.0))  # checked against mpmath at run time
    converted._map = lambda d_in: (profile, 0.0)  # the threshold's delta dropped
    with pytest.raises(ContractError) as error:
        converted.map((1, 1.0, 1.0))
    assert error.value.condition == "privacy-map"
    inner = dp.c.make_zCDP_to_approxDP(stub_measurement((0.5, 5e-7), APPROX_ZCDP))
    fixed = dp.c.make_fix_delta(inner, 1e-6)
    epsilon, total = fixed.map(1.0)
    assert total == 1e-6 and epsilon > inner.map(1.0)[0].epsilon(1e-6)
    fixed._map = lambda d_in: (inner.map(1.0)[0].epsilon(1e-6), 1e-6)  # 5e-7 forgotten
    with pytest.raises(ContractError) as error:
        fixed.map(1.0)
    assert error.value.condition == "privacy-map"
    with pytest.raises(ContractError) as error:
        dp.c.make_fix_delta(dp.c.make_approximate(dp.m.make_gaussian(*ATOM, 1.0)), 1e-6)
    assert error.value.condition == "measurement-smoothed-max-divergence"
