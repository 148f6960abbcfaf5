"""make_float_laplace_cks20: the scalar form on atom_domain(nan=False) with absolute_distance."""

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
from certdp.measurements.float_laplace_cks20.contract import CONTRACT
from certdp.numeric import is_representable

from .stats import no_shrinking

make = dp.m.make_float_laplace_cks20


def space(T="f64", nan=False):
    return dp.atom_domain(T=T, nan=nan), dp.absolute_distance(T=T)


@pytest.mark.parametrize(
    "T, scale, k, d_in, expected",
    [
        ("f64", 0.5, 5, 2.0, 68.0),  # (2 + 2^5 - 2^-1074) / 0.5, rounded up
        ("f64", 1.0, None, 0.0, 0.0),
        ("f64", 1.0, None, 1.0, 1.0),
        ("f64", 0.1, None, 1.0, 10.0),
        ("f64", 3.0, -10, 1.0, 0.3336588541666667),
        ("f64", 0.0, None, 1.0, math.inf),
        ("f64", 0.0, None, 0.0, 0.0),
        ("f64", 5e-324, None, 1e-300, 2.0240225330731062e23),
        ("f32", 1.0, -100, 0.0, 7.888609052210104e-31),
        ("f32", 2.0, None, 1.0, 0.5),
    ],
)
def test_map_values(T, scale, k, d_in, expected):
    assert make(*space(T), scale, k).map(d_in) == expected


def test_release():
    value = make(*space("f64"), 1.0, k=-3)(2.0)
    assert type(value) is float and (Fraction(value) * 8).denominator == 1
    assert is_representable(make(*space("f32"), 1.0)(0.5), "f32")
    assert make(*space("f64"), 0.0, k=2)(2.0) == 4.0  # ties go up
    assert make(*space("f64"), 0.0, k=2)(-2.0) == 0.0
    assert make(*space("f64"), 0.0)(-math.inf) == -1.7976931348623157e308


def test_numpy_inputs_and_grid_exponents():
    assert make(*space("f32"), 0.0)(np.float32(-np.inf)) == -3.4028234663852886e38
    assert make(*space("f32"), 0.0, k=np.int64(-3))(np.float32(0.1875)) == 0.25  # tie: up
    dp.enable_contracts()  # the contract accepts a NumPy integer k, as the code and proof do
    assert make(*space("f64"), 0.5, k=np.int64(5)).map(2.0) == 68.0


@pytest.mark.parametrize(
    "arguments, parameter",
    [
        ((*space(), -0.5), "scale"),
        ((*space(), math.nan), "scale"),
        ((*space(), -math.inf), "scale"),
        ((*space(nan=True), 1.0), "input_domain"),
        ((dp.atom_domain(T="i32"), dp.absolute_distance(T="i32"), 1.0), "input_domain"),
        ((dp.vector_domain(space()[0]), dp.l1_distance(T="f64"), 1.0), "input_domain"),
        ((space()[0], dp.l1_distance(T="f64"), 1.0), "input_metric"),
        ((space()[0], dp.absolute_distance(T="f32"), 1.0), "input_metric"),
    ],
)
def test_bad_arguments(arguments, parameter):
    with pytest.raises(MakeMeasurementError) as error:
        make(*arguments)
    assert error.value.parameter == parameter


@pytest.mark.parametrize("k", [-1075, 1024, 2.0])
def test_bad_k(k):
    with pytest.raises(MakeMeasurementError) as error:
        make(*space(), 1.0, k=k)
    assert error.value.parameter == "k"


@pytest.mark.parametrize("d_in", [-0.5, math.nan, -math.inf, math.inf])
def test_bad_d_in(d_in):
    with pytest.raises(FailedMapError):
        make(*space(), 1.0).map(d_in)


def test_contract_holds():
    assert CONTRACT.verify().examples > 0


def test_contract_refutes_a_map_without_the_relaxation():
    kwargs = {
        "input_domain": dp.atom_domain(bounds=(-8.0, 8.0)),
        "input_metric": dp.absolute_distance(T="f64"),
        "scale": 2.0,
        "k": 1,
    }
    with no_shrinking(), pytest.raises(PrivacyViolation):
        dataclasses.replace(CONTRACT, arguments=lambda: st.just(kwargs)).verify(
            map_override=laplace_map(Fraction(2), Fraction(0))
        )


def test_runtime_enforcement():
    dp.enable_contracts()
    measurement = make(*space(), 0.5, k=5)
    assert measurement.map(2.0) == 68.0
    measurement._map = lambda d_in: 4.0  # (d_in / scale) without the relaxation
    with pytest.raises(ContractError) as error:
        measurement.map(2.0)
    assert error.value.condition == "privacy-map"
    with pytest.raises(ContractError) as error:
        make(*space(), -1.0)
    assert error.value.condition == "scale-finite-non-negative"
