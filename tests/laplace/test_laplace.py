"""make_laplace / then_laplace: dispatch on the domain as OpenDP 0.16 does, the contract,
and the end-to-end chain ``space >> then_sum() >> then_laplace(scale)``."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

import certdp.prelude as dp
from certdp.core.errors import ContractError, MakeMeasurementError
from certdp.measurements.laplace.contract import CONTRACT
from certdp.measurements.laplace.make_laplace import choose_laplace_constructor


@pytest.mark.parametrize(
    "domain, chosen",
    [
        (dp.atom_domain(T="f64", nan=False), "make_float_laplace_cks20"),
        (dp.vector_domain(dp.atom_domain(T="f32", nan=False)), "make_vector_float_laplace_cks20"),
        (dp.atom_domain(T="u32"), "make_integer_laplace"),
        (dp.vector_domain(dp.atom_domain(T="i64"), size=3), "make_vector_integer_laplace"),
        (dp.atom_domain(T="f64"), "make_float_laplace_cks20"),  # which then refuses the NaN
    ],
)
def test_dispatch(domain, chosen):
    assert choose_laplace_constructor(domain).__name__ == chosen


@pytest.mark.parametrize(
    "domain",
    [
        dp.atom_domain(T="bool"),
        dp.vector_domain(dp.atom_domain(T="String")),
        dp.vector_domain(dp.vector_domain(dp.atom_domain(T="i32"))),
    ],
)
def test_refuses_non_numeric_domains(domain):
    with pytest.raises(MakeMeasurementError) as error:
        dp.m.make_laplace(domain, dp.symmetric_distance(), 1.0)
    assert error.value.parameter == "input_domain"


def test_same_values_as_the_specialised_constructors():
    vector = dp.vector_domain(dp.atom_domain(T="f64", nan=False), size=3), dp.l1_distance(T="f64")
    assert dp.m.make_laplace(*vector, 1.0, k=-10).map(0.0) == 0.0029296875
    atom = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")
    assert dp.m.make_laplace(*atom, 0.5, k=5).map(2.0) == 68.0
    assert (atom >> dp.m.then_laplace(0.5, k=5)).map(2.0) == 68.0
    integers = dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance(T="i32")
    assert dp.m.make_laplace(*integers, 2.0).map(3) == 1.5
    with pytest.raises(MakeMeasurementError, match="only valid for domains over floats"):
        dp.m.make_laplace(*integers, 2.0, k=-3)
    with pytest.raises(MakeMeasurementError, match="exclude NaN"):
        dp.m.make_laplace(dp.atom_domain(T="f64"), dp.absolute_distance(T="f64"), 1.0)
    with pytest.raises(MakeMeasurementError, match="scale"):
        dp.m.make_laplace(*atom, math.nan)


def test_contract_holds():
    assert CONTRACT.verify().examples > 0


def test_runtime_enforcement():
    dp.enable_contracts()
    with pytest.raises(ContractError) as error:
        dp.m.make_laplace(dp.atom_domain(T="bool"), dp.symmetric_distance(), 1.0)
    assert error.value.condition == "input-domain-numeric-atoms"
    measurement = dp.m.make_laplace(dp.atom_domain(T="i32"), dp.absolute_distance(T="i32"), 2.0)
    assert measurement.map(4) == 2.0


CHAINS = json.loads(Path(__file__).with_name("opendp_reference.json").read_text())["chains"]


@pytest.mark.parametrize(
    "chain", CHAINS, ids=[f"{c['T']}-size{c['size']}-k{c['k']}" for c in CHAINS]
)
def test_sum_then_laplace_agrees_with_opendp(chain):
    """``space >> then_sum() >> then_laplace(scale, k)``: map values equal OpenDP 0.16's."""
    bounds = tuple(chain["bounds"])
    space = (
        dp.vector_domain(dp.atom_domain(bounds=bounds), size=chain["size"]),
        dp.symmetric_distance(),
    )
    measurement = space >> dp.t.then_sum() >> dp.m.then_laplace(chain["scale"], k=chain["k"])
    for entry in chain["maps"]:
        assert measurement.map(entry["d_in"]) == float.fromhex(entry["map"]["float"])
    data = [bounds[1]] * (chain["size"] or 3)
    release = measurement(data)
    assert type(release) is type(bounds[0])
    assert abs(release - sum(data)) < 100 * chain["scale"] + 1  # P(|noise| >= 100 b) = e^-100


def test_sum_then_laplace_releases_on_the_grid():
    space = dp.vector_domain(dp.atom_domain(bounds=(0.0, 10.0)), size=4), dp.symmetric_distance()
    measurement = space >> dp.t.then_sum() >> dp.m.then_laplace(1.0, k=-2)
    assert (Fraction(measurement([1.0, 2.0, 3.0, 4.0])) * 4).denominator == 1
