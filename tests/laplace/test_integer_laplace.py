"""make_vector_integer_laplace and make_integer_laplace: integer discrete Laplace noise."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import strategies as st
from scipy import stats

import certdp.prelude as dp
from certdp.contracts.contract import PrivacyViolation
from certdp.core.errors import ContractError, FailedMapError, MakeMeasurementError
from certdp.measurements._laplace import laplace_map
from certdp.measurements.integer_laplace.contract import CONTRACT as SCALAR_CONTRACT
from certdp.measurements.vector_integer_laplace.contract import CONTRACT as VECTOR_CONTRACT

from .stats import SIGNIFICANCE, chi_square_pvalue, discrete_laplace_pmf, no_shrinking

vector = dp.m.make_vector_integer_laplace
scalar = dp.m.make_integer_laplace


def vector_space(T="i32", size=None, bounds=None):
    atom = dp.atom_domain(T=T) if bounds is None else dp.atom_domain(bounds=bounds, T=T)
    return dp.vector_domain(atom, size=size), dp.l1_distance(T=T)


def scalar_space(T="i32"):
    return dp.atom_domain(T=T), dp.absolute_distance(T=T)


@pytest.mark.parametrize(
    "scale, d_in, expected",
    [
        (2.0, 3, 1.5),
        (3.0, 1, 0.33333333333333337),
        (0.1, 1, 10.0),
        (0.0, 1, math.inf),
        (0.0, 0, 0.0),
        (1.0, 0, 0.0),
    ],
)
def test_map_values(scale, d_in, expected):
    assert vector(*vector_space(), scale).map(d_in) == expected
    assert scalar(*scalar_space("i64"), scale).map(d_in) == expected


def test_release_is_integer_noise_around_the_input():
    measurement = vector(*vector_space("i32", 3000), 1.0)
    release = measurement([10] * 3000)
    assert all(type(value) is int for value in release)
    offsets = np.array(release) - 10
    assert chi_square_pvalue(offsets, discrete_laplace_pmf(1.0), range(-12, 13)) > SIGNIFICANCE
    positive, negative = int(np.sum(offsets > 0)), int(np.sum(offsets < 0))
    assert stats.binomtest(positive, positive + negative, 0.5).pvalue > SIGNIFICANCE


def test_release_saturates_at_the_type_range():
    assert set(vector(*vector_space("u8"), 1e6)([0, 255] * 20)) <= set(range(256))
    releases = {scalar(*scalar_space("i8"), 1e9)(127) for _ in range(40)}
    assert releases <= {-128, 127} and len(releases) == 2
    assert scalar(*scalar_space(), 0.0)(-(2**31)) == -(2**31)


def test_numpy_input():
    release = vector(*vector_space("i64", 3), 0.0)(np.array([1, -2, 3], dtype=np.int64))
    assert release == [1, -2, 3] and all(type(value) is int for value in release)


@pytest.mark.parametrize("make, space", [(vector, vector_space()), (scalar, scalar_space())])
@pytest.mark.parametrize(
    "extra, parameter",
    [
        ((-1.0,), "scale"),
        ((math.nan,), "scale"),
        ((math.inf,), "scale"),
        ((1.0, 3), "k"),
        ((1.0, 0.0), "k"),
        ((1.0, True), "k"),
    ],
)
def test_bad_arguments(make, space, extra, parameter):
    with pytest.raises(MakeMeasurementError) as error:
        make(*space, *extra)
    assert error.value.parameter == parameter


def test_k_zero_is_accepted():
    assert vector(*vector_space(), 2.0, k=0).map(2) == 1.0


def test_numpy_zero_k_satisfies_the_contract():
    """The code and the proof accept a NumPy integer 0 for k; so must the contract."""
    dp.enable_contracts()
    assert vector(*vector_space(), 2.0, k=np.int64(0)).map(2) == 1.0
    assert scalar(*scalar_space(), 2.0, k=np.int32(0)).map(2) == 1.0
    with pytest.raises(ContractError) as error:
        scalar(*scalar_space(), 2.0, k=np.bool_(False))
    assert error.value.condition == "k-none-or-zero"


@pytest.mark.parametrize("T", ["i32", "u64", "i128"])
@pytest.mark.parametrize("scale", [0.0, 1.0, 1e6])  # no noise, vectorised, one by one
def test_empty_and_single_element_vectors(T, scale):
    assert vector(*vector_space(T), scale)([]) == []
    assert vector(*vector_space(T, 0), scale)([]) == []
    release = vector(*vector_space(T, 1), scale)([7])
    assert len(release) == 1 and type(release[0]) is int


@pytest.mark.parametrize(
    "make, arguments, parameter",
    [
        (
            vector,
            (dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.l1_distance(T="f64"), 1.0),
            "input_domain",
        ),
        (vector, (dp.atom_domain(T="i32"), dp.absolute_distance(T="i32"), 1.0), "input_domain"),
        (vector, (vector_space()[0], dp.l2_distance(T="i32"), 1.0), "input_metric"),
        (vector, (vector_space()[0], dp.l1_distance(T="i64"), 1.0), "input_metric"),
        (scalar, (dp.atom_domain(T="bool"), dp.absolute_distance(T="i32"), 1.0), "input_domain"),
        (scalar, (scalar_space()[0], dp.l1_distance(T="i32"), 1.0), "input_metric"),
    ],
)
def test_wrong_domain_or_metric(make, arguments, parameter):
    with pytest.raises(MakeMeasurementError) as error:
        make(*arguments)
    assert error.value.parameter == parameter


@pytest.mark.parametrize("d_in", [-1, math.nan, math.inf])
def test_bad_d_in(d_in):
    with pytest.raises(FailedMapError):
        vector(*vector_space(), 1.0).map(d_in)


@pytest.mark.parametrize("contract", [VECTOR_CONTRACT, SCALAR_CONTRACT], ids=["vector", "scalar"])
def test_contract_holds(contract):
    assert contract.verify().examples > 0


def test_contract_refutes_a_halved_map():
    kwargs = {
        "input_domain": vector_space("i32", 2, (0, 20))[0],
        "input_metric": dp.l1_distance(T="i32"),
        "scale": 1.0,
        "k": None,
    }
    with no_shrinking(), pytest.raises(PrivacyViolation):
        dataclasses.replace(VECTOR_CONTRACT, arguments=lambda: st.just(kwargs)).verify(
            map_override=lambda d_in: float(d_in) / 2
        )


def test_runtime_enforcement():
    dp.enable_contracts()
    measurement = scalar(*scalar_space(), 4.0)
    assert measurement.map(2) == 0.5
    measurement._map = laplace_map(Fraction(8), Fraction(0))
    with pytest.raises(ContractError) as error:
        measurement.map(2)
    assert error.value.condition == "privacy-map"
    with pytest.raises(ContractError) as error:
        vector(*vector_space(), 1.0, k=2)
    assert error.value.condition == "k-none-or-zero"


# Integer data under a float distance type (OpenDP 0.16's make_laplace accepts atom_domain(T=i32)
# with absolute_distance(T=f64) too). The expected values are OpenDP 0.16's (opendp_reference.json
# holds the full grid); every d_in here is a value of D, so OpenDP's rounding of d_in to the
# nearest value of D changes nothing (test_float_distance_referee.py covers d_in that are not).
@pytest.mark.parametrize("D", ["f64", "f32"])
@pytest.mark.parametrize(
    "scale, d_in, expected",
    [
        (2.0, 0.5, 0.25),
        (2.0, 1.0, 0.5),
        (2.0, 2.5, 1.25),
        (3.0, 1.0, 0.33333333333333337),
        (3.0, 0.5, 0.16666666666666669),
        (3.0, 2.5, 0.8333333333333334),
        (0.0, 0.5, math.inf),
        (0.0, 0.0, 0.0),
    ],
)
def test_float_distance_over_integers(D, scale, d_in, expected):
    atom = scalar(dp.atom_domain(T="i32"), dp.absolute_distance(T=D), scale)
    vec = vector(dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance(T=D), scale)
    assert atom.map(d_in) == expected
    assert vec.map(d_in) == expected
    assert (
        dp.m.make_laplace(dp.atom_domain(T="i32"), dp.absolute_distance(T=D), scale).map(d_in)
        == expected
    )


def test_float_distance_huge_d_in():
    """1e300 over i32 data (OpenDP: 5e299 at scale 2); never below d_in / scale."""
    measurement = scalar(dp.atom_domain(T="i64"), dp.absolute_distance(T="f64"), 3.0)
    assert measurement.map(1e300) == 3.3333333333333335e299
    assert Fraction(measurement.map(1e300)) >= Fraction(1e300) / 3


def test_float_distance_release_is_integer():
    measurement = scalar(dp.atom_domain(T="i32"), dp.absolute_distance(T="f64"), 0.0)
    assert measurement(123) == 123 and type(measurement(123)) is int
    noisy = scalar(dp.atom_domain(T="i32"), dp.absolute_distance(T="f64"), 1.0)(123)
    assert type(noisy) is int


@pytest.mark.parametrize("d_in", [-1.0, -0.5, math.nan, math.inf])
def test_float_distance_bad_d_in(d_in):
    with pytest.raises(FailedMapError):
        scalar(dp.atom_domain(T="i32"), dp.absolute_distance(T="f64"), 1.0).map(d_in)


@pytest.mark.parametrize(
    "make, arguments",
    [
        # floats keep their own distance type; integers accept only their own or a float one
        (scalar, (dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f32"), 1.0)),
        (scalar, (dp.atom_domain(T="i32"), dp.absolute_distance(T="i64"), 1.0)),
        (vector, (vector_space()[0], dp.l1_distance(T="u32"), 1.0)),
        (vector, (vector_space()[0], dp.l2_distance(T="f64"), 1.0)),
        (scalar, (dp.atom_domain(T="i32"), dp.l1_distance(T="f64"), 1.0)),
    ],
)
def test_float_distance_other_refusals(make, arguments):
    with pytest.raises(MakeMeasurementError) as error:
        dp.m.make_laplace(*arguments) if make is scalar else make(*arguments)
    assert error.value.parameter in ("input_metric", "input_domain")


def test_integer_metric_refusal_names_the_float_option():
    with pytest.raises(MakeMeasurementError, match=r"or of a float type, for integers") as error:
        scalar(dp.atom_domain(T="i32"), dp.absolute_distance(T="i64"), 1.0)
    assert error.value.parameter == "input_metric"


@pytest.mark.parametrize("D", ["f64", "f32"])
def test_float_distance_contract_refutes_a_floored_halved_map(D):
    """Under a float distance type, a halved map is refuted (by integer neighbours at
    distance 1 or more)."""
    kwargs = {
        "input_domain": vector_space("i32", 2, (0, 20))[0],
        "input_metric": dp.l1_distance(T=D),
        "scale": 1.0,
        "k": None,
    }
    with no_shrinking(), pytest.raises(PrivacyViolation):
        dataclasses.replace(VECTOR_CONTRACT, arguments=lambda: st.just(kwargs)).verify(
            map_override=lambda d_in: float(d_in) / 2
        )


def test_float_distance_runtime_enforcement():
    dp.enable_contracts()
    measurement = scalar(dp.atom_domain(T="i32"), dp.absolute_distance(T="f64"), 4.0)
    assert measurement.map(2.0) == 0.5
    assert measurement.map(0.5) == 0.125
    measurement._map = laplace_map(Fraction(8), Fraction(0))
    with pytest.raises(ContractError) as error:
        measurement.map(2.0)
    assert error.value.condition == "privacy-map"
    with pytest.raises(ContractError) as error:
        scalar(dp.atom_domain(T="i32"), dp.absolute_distance(T="i64"), 1.0)
    assert error.value.condition == "input-metric-absolute-of-carrier-type"
