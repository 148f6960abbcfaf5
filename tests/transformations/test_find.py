"""make_find: OpenDP 0.16's outputs (read through make_impute_constant, as OpenDP's Python API
cannot return a vector of options), refused categories, contract and runtime enforcement."""

import dataclasses

import numpy as np
import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import MakeTransformationError

from .cast_cases import HOSTILE_TEXTS


@pytest.fixture(autouse=True)
def _contrib():
    # A new constructor is not vetted yet: the gate asks for "contrib" until the lead vets it.
    dp.enable_features("contrib")


def vec(T, **kwargs):
    return dp.vector_domain(dp.atom_domain(T=T), **kwargs)


CASES = [
    ("String", ["a", "b"], ["a", "c", "b", "", "A"]),
    ("String", ["", " ", "1", "nan"], HOSTILE_TEXTS),
    ("i32", [3, 1, -(2**31)], [1, 3, 5, -(2**31), 0]),
    ("u64", [2**64 - 1], [0, 2**64 - 1]),
    ("bool", [True], [True, False]),
    ("i32", [], [1, 2]),
]


@pytest.mark.parametrize("T, categories, data", CASES)
def test_same_positions_as_opendp(T, categories, data):
    ours = dp.t.make_find(vec(T), dp.symmetric_distance(), categories)(data)
    expected = [categories.index(v) if v in categories else None for v in data]
    assert ours == expected
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    find = odp.t.make_find(odp.vector_domain(odp.atom_domain(T=T)), odp.symmetric_distance(),
                           categories)  # fmt: skip
    theirs = (find >> odp.t.then_impute_constant(10**6))(data)
    assert [10**6 if v is None else v for v in ours] == theirs


def test_output_domain_arrays_and_partial_form():
    t = dp.t.make_find(vec("i64", size=3), dp.insert_delete_distance(), (7, 8))
    assert t.output_domain == dp.vector_domain(dp.option_domain(dp.atom_domain(T="usize")), size=3)
    assert t(np.array([8, 7, 9])) == [1, 0, None] and t.map(4) == 4
    t = (vec("String"), dp.symmetric_distance()) >> dp.t.then_find(categories=["x"])
    assert (t >> dp.t.then_is_null())(["x", "y"]) == [False, True]


@pytest.mark.parametrize(
    "T, categories, rule",
    [("String", ["a", "a"], "unique"), ("i32", [1, 1], "unique"), ("i32", [1, 1.5], "value"),
     ("u8", [256], "value"), ("String", "ab", "list or tuple"), ("bool", [1], "value")],
)  # fmt: skip
def test_bad_categories_are_refused_naming_categories(T, categories, rule):
    with pytest.raises(MakeTransformationError, match=rule) as error:
        dp.t.make_find(vec(T), dp.symmetric_distance(), categories)
    assert error.value.parameter == "categories"


def test_floats_bad_domain_and_metric_are_refused():
    for domain in (vec("f64"), dp.atom_domain(T="i32")):
        with pytest.raises(MakeTransformationError) as error:
            dp.t.make_find(domain, dp.symmetric_distance(), [])
        assert error.value.parameter == "input_domain"
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_find(vec("i32"), dp.l1_distance("i32"), [])
    assert error.value.parameter == "input_metric"


def test_contract_verifies_and_a_halved_map_is_refuted():
    report = contract_of(dp.t.make_find).verify()
    assert report.examples > 0 and report.max_tightness == 1
    fixed = dataclasses.replace(
        contract_of(dp.t.make_find),
        arguments=lambda: st.just({"input_domain": vec("i32"),
                                   "input_metric": dp.symmetric_distance(), "categories": [0]}),
    )  # fmt: skip
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    assert dp.t.make_find(vec("i32"), dp.symmetric_distance(), [5])([5, 6]) == [0, None]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_find(vec("i32"), dp.symmetric_distance(), [5, 5])
    assert error.value.condition == "categories-distinct-values"
