"""make_vector_float_laplace_cks20: exact map values, releases on the grid, every refused
argument, the contract (and a wrong map it refutes), and runtime enforcement."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.contract import PrivacyViolation
from certdp.core.errors import ContractError, FailedMapError, MakeMeasurementError
from certdp.measurements._laplace import laplace_map
from certdp.measurements.vector_float_laplace_cks20.contract import CONTRACT
from certdp.numeric import is_representable

from .stats import no_shrinking

make = dp.m.make_vector_float_laplace_cks20
MAX64 = 1.7976931348623157e308


def space(T="f64", size=None, nan=False):
    return dp.vector_domain(dp.atom_domain(T=T, nan=nan), size=size), dp.l1_distance(T=T)


@pytest.mark.parametrize(
    "T, size, scale, k, d_in, expected",
    [
        ("f64", 3, 1.0, -10, 0.0, 0.0029296875),  # 3 * 2^-10: the relaxation alone
        ("f64", 3, 1.0, -10, 1.0, 1.0029296875),
        ("f64", 3, 0.5, None, 2.0, 4.0),  # default k: no relaxation
        ("f64", None, 2.0, None, 3.0, 1.5),
        ("f64", 2, 3.0, -1073, 1.0, 0.33333333333333337),  # 1/3 rounded up, relaxation 2 * 2^-1074
        ("f32", 3, 1.0, -10, 0.0, 0.0029296875),
        ("f32", 1, 1.0, -100, 0.0, 7.888609052210104e-31),  # 2^-100 - 2^-149, exactly
        ("f64", 4, 0.0, -10, 0.0, math.inf),  # relaxation > 0 and no noise
        ("f64", 4, 0.0, None, 0.0, 0.0),  # nothing to hide, nothing added
        ("f64", 4, 0.0, None, 1e-300, math.inf),
        ("f64", 0, 1.0, 5, 0.0, 0.0),  # size 0: the relaxation is multiplied by 0
        ("f64", 1, 1e-300, None, 1e300, math.inf),  # the quotient exceeds the f64 range
    ],
)
def test_map_values(T, size, scale, k, d_in, expected):
    assert make(*space(T, size), scale, k).map(d_in) == expected


def test_releases_are_floats_on_the_grid():
    measurement = make(*space("f64", 4), 1.0, k=-10)
    release = measurement([0.0, 1.5, -7.25, 1e6])
    assert len(release) == 4 and all(type(value) is float for value in release)
    assert all((Fraction(value) * 1024).denominator == 1 for value in release)


def test_f32_releases_are_f32_values():
    measurement = make(*space("f32", None), 1.0)
    release = measurement(np.array([0.5, -3.0, 1e30], dtype=np.float32))
    assert len(release) == 3 and all(is_representable(value, "f32") for value in release)


def test_zero_scale_releases_the_rounded_input():
    measurement = make(*space("f64", 4), 0.0, k=-10)
    release = measurement([0.3, -0.3, -0.0, math.inf])
    assert release == [0.2998046875, -0.2998046875, 0.0, MAX64]
    assert math.copysign(1, release[2]) == 1
    assert make(*space("f64", None), 0.0)([-math.inf, 2.5]) == [-MAX64, 2.5]


def test_empty_and_single_element_vectors():
    assert make(*space("f64", 0), 1.0, k=-10)([]) == []
    assert make(*space("f32", None), 1.0)(np.array([], dtype=np.float32)) == []
    assert make(*space("f64", 1), 0.0, k=-1)([0.75]) == [1.0]  # a tie: up to the grid point 1


def test_numpy_integer_k_satisfies_the_contract():
    """The code and the proof accept a NumPy integer k; so must the contract's precondition."""
    dp.enable_contracts()
    assert make(*space("f64", 3), 1.0, k=np.int64(-10)).map(1.0) == 1.0029296875
    assert make(*space("f32", 2), 1.0, k=np.int32(-149)).map(1.0) == 1.0
    with pytest.raises(ContractError) as error:
        make(*space("f64", 3), 1.0, k=np.bool_(True))
    assert error.value.condition == "k-within-grid-range"


def test_noise_has_the_requested_scale():
    """The mean absolute deviation of Laplace(b) noise is b."""
    measurement = make(*space("f64", 2000), 2.0, k=-20)
    release = np.array(measurement([5.0] * 2000))
    assert abs(np.mean(np.abs(release - 5.0)) - 2.0) < 0.25


# --- refused arguments ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "arguments, parameter, message",
    [
        ((*space(), -1.0), "scale", "must not be negative"),
        ((*space(), math.nan), "scale", "must not be NaN"),
        ((*space(), math.inf), "scale", "must be finite"),
        ((*space(), True), "scale", "must be a number"),
        ((*space(), "1"), "scale", "must be a number"),
        ((*space("f64", nan=True), 1.0), "input_domain", "exclude NaN"),
        (
            (dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance(T="i32"), 1.0),
            "input_domain",
            "f32 or f64",
        ),
        (
            (dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64"), 1.0),
            "input_domain",
            "vector_domain",
        ),
        ((space()[0], dp.l2_distance(T="f64"), 1.0), "input_metric", "l1_distance"),
        ((space()[0], dp.l1_distance(T="f32"), 1.0), "input_metric", "l1_distance"),
        ((space()[0], dp.symmetric_distance(), 1.0), "input_metric", "l1_distance"),
    ],
)
def test_bad_arguments(arguments, parameter, message):
    with pytest.raises(MakeMeasurementError) as error:
        make(*arguments)
    assert error.value.parameter == parameter and message in str(error.value)


@pytest.mark.parametrize(
    "T, k, message",
    [
        ("f64", -1075, "must not be smaller than -1074"),
        ("f32", -150, "must not be smaller than -149"),
        ("f64", 1024, "must not exceed 1023"),
        ("f32", 128, "must not exceed 127"),
        ("f64", 0.5, "must be an integer"),
        ("f64", True, "must be an integer"),
    ],
)
def test_bad_k(T, k, message):
    with pytest.raises(MakeMeasurementError) as error:
        make(*space(T, 3), 1.0, k=k)
    assert error.value.parameter == "k" and message in str(error.value)


def test_unknown_size_needs_exact_discretization():
    with pytest.raises(
        MakeMeasurementError, match="domain size must be known if discretization is not exact"
    ):
        make(*space("f64", None), 1.0, k=-10)
    make(*space("f64", None), 1.0, k=-1074)  # exact: allowed


@pytest.mark.parametrize("d_in", [-1.0, math.nan, math.inf, True, "1"])
def test_bad_d_in(d_in):
    with pytest.raises(FailedMapError) as error:
        make(*space(), 1.0).map(d_in)
    assert error.value.parameter == "d_in"


def test_out_of_domain_data_is_refused():
    measurement = make(*space("f64", 2), 1.0)
    with pytest.raises(dp.FailedFunctionError):
        measurement([1.0])  # wrong size
    with pytest.raises(dp.FailedFunctionError):
        measurement([1.0, math.nan])


# --- the contract ------------------------------------------------------------------------------


def test_contract_holds():
    report = CONTRACT.verify()
    assert report.examples > 0


def _fixed(kwargs):
    return dataclasses.replace(CONTRACT, arguments=lambda: st.just(kwargs))


def test_contract_refutes_a_map_without_the_relaxation():
    kwargs = {
        "input_domain": dp.vector_domain(dp.atom_domain(bounds=(-8.0, 8.0)), size=3),
        "input_metric": dp.l1_distance(T="f64"),
        "scale": 1.0,
        "k": 0,
    }
    wrong = laplace_map(Fraction(1), Fraction(0))  # (d_in + 0) / scale
    with no_shrinking(), pytest.raises(PrivacyViolation) as error:
        _fixed(kwargs).verify(map_override=wrong)
    assert error.value.divergence > error.value.d_out_stated


def test_concrete_counterexample_to_the_map_without_relaxation():
    """0.49999999999999994 and 0.5 differ by 2^-54 but round to the grid points 0 and 1."""
    kwargs = {
        "input_domain": space("f64", 1)[0],
        "input_metric": dp.l1_distance(T="f64"),
        "scale": 1.0,
        "k": 0,
    }
    built = make(**kwargs)
    x, x_prime = [0.49999999999999994], [0.5]
    d_in = 2.0**-54
    divergence, witness = CONTRACT.divergence(built, kwargs, x, x_prime)
    assert divergence == 1  # one grid step at scale 1
    with pytest.raises(PrivacyViolation):
        CONTRACT.check_pair(
            built, kwargs, x, x_prime, d_in, float(laplace_map(Fraction(1), Fraction(0))(d_in))
        )
    CONTRACT.check_pair(built, kwargs, x, x_prime, d_in, built.map(d_in))  # the real map covers it
    assert built.map(d_in) >= 1.0


def test_runtime_enforcement():
    dp.enable_contracts()
    measurement = make(*space("f64", 3), 1.0, k=-10)
    assert measurement.map(1.0) == 1.0029296875
    measurement._map = laplace_map(Fraction(1), Fraction(0))  # drops the relaxation
    with pytest.raises(ContractError) as error:
        measurement.map(1.0)
    assert error.value.condition == "privacy-map"
    with pytest.raises(ContractError) as error:
        make(*space("f64", None), 1.0, k=-10)
    assert error.value.condition == "size-known-unless-exact"
    with pytest.raises(ContractError) as error:
        make(*space("f64", 3, nan=True), 1.0)
    assert error.value.condition == "input-domain-vector-of-non-nan-floats"
