"""make_noise: OpenDP's noise constructor, Laplace under the max-divergence and Gaussian under
zCDP."""

from __future__ import annotations

import dataclasses

import pytest

import certdp.prelude as dp
from certdp.contracts.contract import PrivacyViolation
from certdp.core.errors import ContractError, MakeMeasurementError
from certdp.measurements.noise.contract import CONTRACT

make = dp.m.make_noise
PURE, ZCDP = dp.max_divergence(), dp.zero_concentrated_divergence()


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # make_noise is not vetted in this branch yet


I32 = dp.atom_domain(T="i32"), dp.absolute_distance(T="i32")
F64 = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")
VEC_L1 = dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance(T="i32")
VEC_L2 = dp.vector_domain(dp.atom_domain(T="i32")), dp.l2_distance(T="i32")

# OpenDP 0.16.0: dp.m.make_noise(*space, measure, scale).map(d_in)
OPENDP = [
    (I32, PURE, 1.0, 1, 1.0),
    (I32, ZCDP, 1.0, 1, 0.5),
    (F64, PURE, 1.0, 1.0, 1.0),
    (VEC_L2, ZCDP, 1.0, 1, 0.5),
    (VEC_L1, PURE, 1.0, 1, 1.0),
]


@pytest.mark.parametrize("space, measure, scale, d_in, expected", OPENDP)
def test_map_matches_opendp(space, measure, scale, d_in, expected):
    assert make(*space, measure, scale).map(d_in) == expected


@pytest.mark.parametrize("scale", [0.5, 2.0, 1e-3])
@pytest.mark.parametrize("d_in", [0, 1, 3, 1000])
def test_the_measurement_is_the_dispatched_one(scale, d_in):
    for space in (I32, VEC_L1):
        built = make(*space, PURE, scale)
        assert built.output_measure == PURE
        assert built.map(d_in) == dp.m.make_laplace(*space, scale).map(d_in)
    for space in (I32, VEC_L2):
        built = make(*space, ZCDP, scale)
        assert built.output_measure == ZCDP
        assert built.map(d_in) == dp.m.make_gaussian(*space, scale).map(d_in)
    float_built = make(*F64, PURE, scale, k=-10)
    assert float_built.map(d_in) == dp.m.make_laplace(*F64, scale, k=-10).map(d_in)


@pytest.mark.parametrize(
    "measure",
    [dp.approximate(dp.max_divergence()), dp.smoothed_max_divergence(), "MaxDivergence", None],
)
def test_other_measures_are_refused(measure):
    with pytest.raises(MakeMeasurementError) as error:
        make(*I32, measure, 1.0)
    assert error.value.parameter == "output_measure"
    assert "MaxDivergence or ZeroConcentratedDivergence" in str(error.value)


def test_the_chosen_constructors_refusals_pass_through():
    with pytest.raises(MakeMeasurementError) as error:
        make(*I32, PURE, -1.0)
    assert error.value.parameter == "scale"
    with pytest.raises(MakeMeasurementError) as error:
        make(*VEC_L1, ZCDP, 1.0)  # the Gaussian needs the L2 distance
    assert error.value.parameter == "input_metric"


def test_then_form():
    measurement = I32 >> dp.m.then_noise(output_measure=ZCDP, scale=2.0)
    assert measurement.map(2) == 0.5


def test_contract_verify():
    CONTRACT.verify()


def test_a_halved_map_is_refuted():
    with pytest.raises(PrivacyViolation):
        dataclasses.replace(CONTRACT).verify(map_override=lambda d_in: float(d_in) / 2)


def test_runtime_contracts():
    dp.enable_contracts()
    try:
        assert make(*I32, ZCDP, 2.0).map(2) == 0.5
        with pytest.raises(ContractError):
            make(*I32, dp.approximate(dp.max_divergence()), 1.0)
    finally:
        dp.disable_contracts()
