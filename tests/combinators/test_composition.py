"""make_composition: pure DP and zCDP maps add (exact sum rounded up), bad inputs, contract."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.combinators.composition.contract import CONTRACT
from certdp.contracts.contract import PrivacyViolation, contract_of
from certdp.core.errors import ContractError, MakeMeasurementError
from tests.laplace.stats import no_shrinking

ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")


def gaussian(scale):
    return dp.m.make_gaussian(*ATOM, scale)


def laplace(scale):
    return dp.m.make_laplace(*ATOM, scale)


def attached_laplace(scale):
    """A Laplace measurement carrying its arguments and contract, as the strategies build."""
    measurement = laplace(scale)
    measurement.contract_arguments = {
        "input_domain": ATOM[0],
        "input_metric": ATOM[1],
        "scale": scale,
    }
    measurement.contract = contract_of(dp.m.make_laplace)
    return measurement


def test_zcdp_maps_add():
    composed = dp.c.make_composition([gaussian(1.0), gaussian(2.0), gaussian(3.0)])
    assert composed.output_measure == dp.zero_concentrated_divergence()
    exact = sum(Fraction(1, 2) / Fraction(s) ** 2 * Fraction(1, 4) for s in (1, 2, 3))
    value = composed.map(0.5)
    assert Fraction(value) >= exact > Fraction(math.nextafter(value, 0))
    assert composed.map(3.0) == 6.125


def test_pure_maps_add_and_release_lists():
    composed = dp.c.make_composition((laplace(1.0), laplace(0.5)))
    assert composed.output_measure == dp.max_divergence()
    assert composed.map(1.0) == 3.0
    released = composed(2.0)
    assert isinstance(released, list) and len(released) == 2
    assert all(isinstance(value, float) for value in released)


def test_infinite_inner_map_gives_infinity():
    assert dp.c.make_composition([laplace(0.0), laplace(1.0)]).map(1.0) == math.inf
    assert dp.c.make_composition([laplace(0.0)]).map(0.0) == 0.0


def test_overflow_gives_infinity():
    composed = dp.c.make_composition([laplace(5e-324), laplace(5e-324)])
    assert composed.map(1e300) == math.inf


@pytest.mark.parametrize(
    "measurements, message",
    [
        ([], "non-empty"),
        (None, "non-empty"),
        ([1.0], "only measurements"),
        ([laplace(1.0), gaussian(1.0)], "one output measure"),
        (
            [
                laplace(1.0),
                dp.m.make_laplace(dp.atom_domain(T="i32"), dp.absolute_distance(T="i32"), 1.0),
            ],
            "one input domain",
        ),
        (
            [dp.c.make_zCDP_to_approxDP(gaussian(1.0))],
            "MaxDivergence or ZeroConcentratedDivergence",
        ),
    ],
)
def test_bad_arguments(measurements, message):
    with pytest.raises(MakeMeasurementError, match=message) as error:
        dp.c.make_composition(measurements)
    assert error.value.parameter == "measurements"


def test_bad_d_in_is_refused_by_the_inner_maps():
    with pytest.raises(dp.FailedMapError):
        dp.c.make_composition([laplace(1.0)]).map(-1.0)


def test_contract_holds():
    assert CONTRACT.verify().examples > 0


def test_contract_refutes_a_map_that_keeps_only_the_largest_loss():
    kwargs = {"measurements": [attached_laplace(1.0), attached_laplace(1.0)]}
    fixed = dataclasses.replace(CONTRACT, arguments=lambda: st.just(kwargs))
    with no_shrinking(), pytest.raises(PrivacyViolation):
        fixed.verify(map_override=lambda d_in: float(d_in))


def test_runtime_enforcement():
    dp.enable_contracts()
    composed = dp.c.make_composition([laplace(1.0), laplace(2.0)])
    assert composed.map(1.0) == 1.5
    composed._map = lambda d_in: 1.0
    with pytest.raises(ContractError) as error:
        composed.map(1.0)
    assert error.value.condition == "privacy-map"
    with pytest.raises(ContractError) as error:
        dp.c.make_composition([])
    assert error.value.condition == "measurements-non-empty-list"
