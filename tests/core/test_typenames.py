"""OpenDP's type names (dp.i32, dp.Vec[...]), input_space/output_space, and dp.examples."""

from __future__ import annotations

import csv

import pytest

import certdp.prelude as dp
from certdp.core.errors import MakeDomainError
from certdp.core.types import ALL_TYPES

SUPPORTED = ["i8", "i16", "i32", "i64", "i128", "u8", "u16", "u32", "u64", "u128", "usize"]
SUPPORTED += ["f32", "f64", "String"]


@pytest.mark.parametrize("name", SUPPORTED)
def test_each_supported_name_is_the_carrier_string(name):
    value = getattr(dp, name)
    assert type(value) is str and value == name
    assert dp.atom_domain(T=value) == dp.atom_domain(T=name)
    assert dp.carrier(value).name == name


def test_every_carrier_certdp_has_has_a_name_or_a_python_type():
    assert set(ALL_TYPES) == set(SUPPORTED) | {"bool"}
    assert dp.atom_domain(T=bool) == dp.atom_domain(T="bool")


@pytest.mark.parametrize("name", ["isize", "Vec<i32>"])
def test_unsupported_names_are_refused_naming_the_type(name):
    value = dp.isize if name == "isize" else dp.Vec[dp.i32]
    with pytest.raises(MakeDomainError, match=f"unknown carrier type '{name}'") as error:
        dp.atom_domain(T=value)
    assert error.value.parameter == "T"


def test_vec_spells_opendps_names():
    assert dp.Vec[dp.i32] == "Vec<i32>" and str(dp.Vec) == "Vec"
    assert dp.Vec[int] == "Vec<i32>" and dp.Vec[float] == "Vec<f64>"
    assert dp.Vec[bool] == "Vec<bool>" and dp.Vec[str] == "Vec<String>"
    assert dp.Vec[dp.Vec[dp.u8]] == "Vec<Vec<u8>>"
    assert dp.Vec[int, dp.f32] == "Vec<i32, f32>"
    for bad in (3, None, 1.5, ()):
        with pytest.raises(MakeDomainError) as error:
            dp.Vec[bad]
        assert error.value.parameter == "T"


def test_count_takes_a_type_name():
    space = dp.vector_domain(dp.atom_domain(T=dp.i32)), dp.symmetric_distance()
    count = dp.t.make_count(*space, TO=dp.u64)
    assert count([1, 2, 3]) == 3 and count.output_domain == dp.atom_domain(T="u64")


def test_spaces():
    space = dp.vector_domain(dp.atom_domain(T=dp.f64, nan=False)), dp.symmetric_distance()
    clamp = dp.t.make_clamp(*space, bounds=(0.0, 1.0))
    assert clamp.input_space == space
    assert clamp.output_space == (clamp.output_domain, clamp.output_metric)
    assert clamp.output_space[0] != space[0]  # the bounds are part of the output domain
    release = clamp >> dp.t.then_sum() >> dp.m.then_laplace(scale=1.0)
    assert release.input_space == space
    assert not hasattr(release, "output_space")  # as in OpenDP: a measurement has a measure
    chained = clamp.output_space >> dp.t.then_sum()
    assert chained.input_space == clamp.output_space


def test_california_pums_path():
    path = dp.examples.get_california_pums_path()
    assert path.name == "california_pums.csv" and path.is_file()
    with open(path, newline="") as file:
        rows = list(csv.reader(file))
    assert len(rows) == 1000 and {len(row) for row in rows} == {6}
    # the file is OpenDP's as published: six incomes are written 1e+05
    assert sum(row[4] == "1e+05" for row in rows) == 6
    age, sex, educ, race, income, married = zip(*((float(v) for v in row) for row in rows))
    assert set(sex) <= {0, 1} and set(married) <= {0, 1} and min(age) >= 0 and min(income) >= 0
    assert all(value == int(value) for value in age + educ + race + income)
