"""make_gaussian / then_gaussian: integer and float atoms and vectors under zCDP, every bad
input, the contract (exact zCDP divergence), refuted wrong maps and runtime enforcement."""

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
from certdp.measurements._gaussian import gaussian_map
from certdp.measurements.gaussian.contract import CONTRACT
from tests.laplace.stats import no_shrinking

from .stats import (
    SIGNIFICANCE,
    chi_square_pvalue,
    discrete_gaussian_cdf,
    discrete_gaussian_pmf,
    ks_pvalue,
    support,
)

make = dp.m.make_gaussian


def space(T="f64", shape="vector", size=None, nan=False):
    if T.startswith("f"):
        atom = dp.atom_domain(T=T, nan=nan)
    else:
        atom = dp.atom_domain(T=T)
    if shape == "atom":
        return atom, dp.absolute_distance(T=T)
    return dp.vector_domain(atom, size=size), dp.l2_distance(T=T)


@pytest.mark.parametrize(
    "T, shape, size, scale, k, d_in, expected",
    [
        ("i32", "atom", None, 2.0, None, 1, 0.125),  # the reference value
        ("i32", "vector", None, 2.0, None, 3, 1.125),
        ("i64", "atom", None, 0.5, 0, 1, 2.0),
        ("u32", "vector", 4, 3.0, None, 1, 1 / 18 + 2**-57),  # 1/18 rounded up
        ("f64", "atom", None, 2.0, None, 1.0, 0.125),
        ("f64", "vector", None, 2.0, None, 1.0, 0.125),
        ("f64", "vector", 4, 1.0, 0, 1.0, 4.5),  # (1 + 1 * sqrt(4))^2 / 2
        ("f64", "vector", 9, 1.0, -1, 0.0, 1.125),  # (0 + 0.5 * 3)^2 / 2
        ("f32", "atom", None, 1.0, -2, 0.75, 0.5),  # (0.75 + 0.25)^2 / 2
        ("f64", "vector", None, 0.0, None, 0.0, 0.0),
        ("f64", "vector", None, 0.0, None, 1.0, math.inf),
        ("i32", "atom", None, 1e-300, None, 1, math.inf),  # beyond the f64 range
    ],
)
def test_map_values(T, shape, size, scale, k, d_in, expected):
    assert make(*space(T, shape, size), scale, k=k).map(d_in) == expected


def test_map_is_the_exact_value_rounded_up():
    measurement = make(*space("f64", "vector", 10), 3.0, k=-20)
    root_up = math.sqrt(10)  # correctly rounded to nearest; sqrt(10) is irrational
    if Fraction(root_up) ** 2 < 10:
        root_up = math.nextafter(root_up, math.inf)
    assert Fraction(root_up) ** 2 > 10 > Fraction(math.nextafter(root_up, 0)) ** 2
    relaxation = (Fraction(2) ** -20 - Fraction(2) ** -1074) * Fraction(root_up)
    exact = (Fraction(0.1) + relaxation) ** 2 / 18
    value = measurement.map(0.1)
    assert Fraction(value) >= exact > Fraction(math.nextafter(value, 0))


def test_then_gaussian_and_output_measure():
    measurement = space("i32", "atom") >> dp.m.then_gaussian(2.0)
    assert measurement.output_measure == dp.zero_concentrated_divergence()
    assert measurement.map(1) == 0.125
    for MO in [
        "ZeroConcentratedDivergence",
        dp.ZeroConcentratedDivergence,
        dp.zero_concentrated_divergence(),
    ]:
        assert make(*space("i32", "atom"), 2.0, MO=MO).map(2) == 0.5


def test_integer_releases():
    measurement = make(*space("i32", "vector"), 1.0)
    released = measurement([1, 2, 3])
    assert len(released) == 3 and all(type(v) is int for v in released)
    assert make(*space("i8", "vector"), 1e6)([0] * 50) != [0] * 50
    assert all(-128 <= v <= 127 for v in make(*space("i8", "vector"), 1e6)([0] * 50))
    assert make(*space("u64", "atom"), 0.0)(2**64 - 1) == 2**64 - 1
    assert make(*space("i64", "vector"), 0.0)([-(2**63), 5]) == [-(2**63), 5]
    assert make(*space("i32", "vector"), 1.0)([]) == []


def test_float_releases():
    measurement = make(*space("f64", "vector", 3), 1.0, k=-10)
    released = measurement([1.0, -2.5, math.inf])
    assert all(type(v) is float and (Fraction(v) * 1024).denominator == 1 for v in released)
    assert make(*space("f64", "atom"), 0.0, k=2)(6.0) == 8.0
    assert make(*space("f32", "atom"), 0.0)(math.inf) == float(np.float32(3.4028234663852886e38))
    assert make(*space("f64", "vector"), 0.0)([math.inf, -math.inf]) == [
        1.7976931348623157e308,
        -1.7976931348623157e308,
    ]


def test_integer_noise_has_the_discrete_gaussian_law():
    measurement = make(*space("i64", "vector"), 1.5)
    draws = np.array(measurement([0] * 20_000))
    assert chi_square_pvalue(draws, discrete_gaussian_pmf(1.5), support(1.5)) > SIGNIFICANCE
    scalar = make(*space("i32", "atom"), 1.5)
    singles = np.array([scalar(10) - 10 for _ in range(5_000)])
    assert ks_pvalue(singles, discrete_gaussian_cdf(1.5)) > SIGNIFICANCE


def test_float_noise_has_the_gaussian_law_at_the_default_grid():
    draws = make(*space("f64", "vector"), 2.0)([0.5] * 3_000)
    assert stats.kstest(draws, stats.norm(loc=0.5, scale=2.0).cdf).pvalue > SIGNIFICANCE


# --- bad inputs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "arguments, parameter, message",
    [
        ((*space("i32", "atom"), 1.0, None, "MaxDivergence"), "MO", "ZeroConcentratedDivergence"),
        ((*space("i32", "atom"), 1.0, None, dp.max_divergence()), "MO", "only output measure"),
        ((dp.atom_domain(T="bool"), dp.absolute_distance(T="i32"), 1.0), "input_domain", "numeric"),
        (
            (dp.vector_domain(dp.atom_domain(T="String")), dp.l2_distance(T="i32"), 1.0),
            "input_domain",
            "numeric",
        ),
        (
            (
                dp.vector_domain(dp.vector_domain(dp.atom_domain(T="i32"))),
                dp.l2_distance(T="i32"),
                1.0,
            ),
            "input_domain",
            "numeric",
        ),
        ((dp.atom_domain(T="i32"), dp.l2_distance(T="i32"), 1.0), "input_metric", "absolute"),
        (
            (dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance(T="i32"), 1.0),
            "input_metric",
            "l2_distance",
        ),
        (
            (dp.vector_domain(dp.atom_domain(T="i32")), dp.l2_distance(T="i64"), 1.0),
            "input_metric",
            "l2_distance",
        ),
        (
            (dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), 1.0),
            "input_metric",
            "l2_distance",
        ),
        ((*space("i32", "atom"), -1.0), "scale", "negative"),
        ((*space("i32", "atom"), math.nan), "scale", "NaN"),
        ((*space("f64", "atom"), math.inf), "scale", "finite"),
        ((*space("f64", "atom"), "1"), "scale", "number"),
        ((*space("f64", "atom"), True), "scale", "number"),
        ((*space("i32", "atom"), 1.0, -3), "k", "only valid for domains over floats"),
        ((*space("f64", "atom"), 1.0, -1075), "k", "smaller"),
        ((*space("f32", "vector"), 1.0, 128), "k", "exceed"),
        ((*space("f64", "atom"), 1.0, 0.5), "k", "integer"),
        ((*space("f64", "vector", nan=True), 1.0), "input_domain", "NaN"),
        ((*space("f64", "vector"), 1.0, -10), "input_domain", "size must be known"),
    ],
)
def test_bad_arguments(arguments, parameter, message):
    with pytest.raises(MakeMeasurementError, match=message) as error:
        make(*arguments)
    assert error.value.parameter == parameter


def test_unknown_size_is_fine_with_exact_discretization():
    assert make(*space("f64", "vector"), 1.0, k=-1074).map(1.0) == 0.5
    assert make(*space("f64", "vector"), 1.0, k=None).map(1.0) == 0.5


@pytest.mark.parametrize("d_in", [-1.0, -1, math.nan, math.inf, True, "1", None])
def test_bad_d_in(d_in):
    with pytest.raises(FailedMapError) as error:
        make(*space("f64", "vector"), 1.0).map(d_in)
    assert error.value.parameter == "d_in"


def test_out_of_domain_data_is_refused():
    measurement = make(*space("f64", "vector", 2), 1.0)
    with pytest.raises(dp.FailedFunctionError):
        measurement([1.0])
    with pytest.raises(dp.FailedFunctionError):
        measurement([1.0, math.nan])
    with pytest.raises(dp.FailedFunctionError):
        make(*space("i32", "atom"), 1.0)(2**40)
    with pytest.raises(dp.FailedFunctionError):
        make(*space("i32", "atom"), 1.0)(1.5)


# --- the contract --------------------------------------------------------------------------------


def test_contract_holds():
    report = CONTRACT.verify()
    assert report.examples > 0


def _fixed(kwargs):
    return dataclasses.replace(CONTRACT, arguments=lambda: st.just(kwargs))


def test_contract_refutes_a_map_that_forgets_the_square():
    kwargs = {
        "input_domain": dp.vector_domain(dp.atom_domain(T="i32")),
        "input_metric": dp.l2_distance(T="i32"),
        "scale": 1.0,
        "k": None,
    }
    with no_shrinking(), pytest.raises(PrivacyViolation) as error:
        _fixed(kwargs).verify(map_override=lambda d_in: float(d_in) / 2)
    assert error.value.divergence > error.value.d_out_stated


def test_contract_refutes_a_map_without_the_relaxation():
    kwargs = {
        "input_domain": dp.vector_domain(dp.atom_domain(bounds=(-8.0, 8.0)), size=3),
        "input_metric": dp.l2_distance(T="f64"),
        "scale": 1.0,
        "k": 0,
    }
    wrong = gaussian_map(Fraction(1), Fraction(0))
    with no_shrinking(), pytest.raises(PrivacyViolation) as error:
        _fixed(kwargs).verify(map_override=wrong)
    assert error.value.divergence > error.value.d_out_stated


def test_concrete_counterexample_to_the_map_without_relaxation():
    """0.49999999999999994 and 0.5 differ by 2^-54 but round to the grid points 0 and 1."""
    kwargs = {
        "input_domain": space("f64", "atom")[0],
        "input_metric": dp.absolute_distance(T="f64"),
        "scale": 1.0,
        "k": 0,
    }
    built = make(**kwargs)
    d_in = 2.0**-54
    divergence, _ = CONTRACT.divergence(built, kwargs, 0.49999999999999994, 0.5)
    assert divergence == Fraction(1, 2)  # one grid step at scale 1: 1 / 2
    with pytest.raises(PrivacyViolation):
        CONTRACT.check_pair(
            built,
            kwargs,
            0.49999999999999994,
            0.5,
            d_in,
            gaussian_map(Fraction(1), Fraction(0))(d_in),
        )
    CONTRACT.check_pair(built, kwargs, 0.49999999999999994, 0.5, d_in, built.map(d_in))


def test_divergence_is_exact_for_integer_vectors():
    kwargs = {
        "input_domain": dp.vector_domain(dp.atom_domain(T="i32")),
        "input_metric": dp.l2_distance(T="i32"),
        "scale": Fraction(3, 2),
        "k": None,
    }
    built = make(**kwargs)
    divergence, witness = CONTRACT.divergence(built, kwargs, [0, 5, 2], [1, 3, 2])
    assert divergence == Fraction(5, 1) / (2 * Fraction(9, 4)) and witness == {"alpha": 2}


def test_runtime_enforcement():
    dp.enable_contracts()
    measurement = make(*space("f64", "vector", 4), 1.0, k=0)
    assert measurement.map(1.0) == 4.5
    measurement._map = gaussian_map(Fraction(1), Fraction(0))  # drops the relaxation
    with pytest.raises(ContractError) as error:
        measurement.map(1.0)
    assert error.value.condition == "privacy-map"
    with pytest.raises(ContractError) as error:
        make(*space("f64", "vector"), 1.0, k=-10)
    assert error.value.condition == "size-known-unless-exact"
    with pytest.raises(ContractError) as error:
        make(*space("i32", "atom"), 1.0, MO="MaxDivergence")
    assert error.value.condition == "output-measure-zcdp"
