"""make_index: OpenDP 0.16's outputs, refused arguments (typed, naming the parameter), contract
and runtime enforcement."""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import MakeTransformationError

from .cast_cases import same

USIZE = dp.vector_domain(dp.atom_domain(T="usize"))

# Outputs observed on OpenDP 0.16.0 (make_index, contrib).
CASES = [
    (["a", "b"], "z", None, [0, 1, 2, 100], ["a", "b", "z", "z"]),
    ([1.0, math.nan], 0.5, None, [0, 1, 2], [1.0, math.nan, 0.5]),
    (["a", "a"], "a", None, [0, 1, 2], ["a", "a", "a"]),
    ([1.1], 2.0, "f32", [0, 1], [1.100000023841858, 2.0]),
    ([1, 2], 0, "i64", [1, 2**64 - 1], [2, 0]),
    ([True], False, None, [0, 3], [True, False]),
]


@pytest.mark.parametrize("categories, null, TOA, data, expected", CASES)
def test_same_outputs_as_opendp(categories, null, TOA, data, expected):
    dp.enable_features("contrib")
    ours = dp.t.make_index(USIZE, dp.symmetric_distance(), categories, null, TOA)(data)
    assert len(ours) == len(expected) and all(same(a, b) for a, b in zip(ours, expected))
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    theirs = odp.t.make_index(odp.vector_domain(odp.atom_domain(T="usize")),
                              odp.symmetric_distance(), categories, null, TOA)(data)  # fmt: skip
    assert all(same(a, b) for a, b in zip(ours, theirs))


def test_output_domain_arrays_and_partial_form():
    dp.enable_features("contrib")
    t = dp.t.make_index(dp.vector_domain(dp.atom_domain(T="usize"), size=2),
                        dp.insert_delete_distance(), [0.5], -1.0)  # fmt: skip
    assert t.output_domain == dp.vector_domain(dp.atom_domain(T="f64", nan=True), size=2)
    assert t(np.array([0, 7], dtype=np.uint64)) == [0.5, -1.0] and t.map(3) == 3
    t = (USIZE, dp.symmetric_distance()) >> dp.t.then_index(["x"], "-")
    assert t([0, 1]) == ["x", "-"]


@pytest.mark.parametrize(
    "args, parameter",
    [((["a"], 1), "null"), (([1, 2], 0.5), "null"), (([1, 1.5], 0), "categories"),
     (([], "x"), "TOA"), (([1], 0, "i33"), "TOA"), (("ab", "x"), "categories"),
     (([1], 0, "u8"), "categories")],
)  # fmt: skip
def test_bad_arguments_are_refused_naming_the_parameter(args, parameter):
    dp.enable_features("contrib")
    if parameter == "categories" and args[-1] == "u8":
        args = ([300], 0, "u8")
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_index(USIZE, dp.symmetric_distance(), *args)
    assert error.value.parameter == parameter


def test_bad_domain_and_metric_are_refused():
    dp.enable_features("contrib")
    for domain in (dp.vector_domain(dp.atom_domain(T="u32")), dp.atom_domain(T="usize")):
        with pytest.raises(MakeTransformationError) as error:
            dp.t.make_index(domain, dp.symmetric_distance(), ["a"], "b")
        assert error.value.parameter == "input_domain"
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_index(USIZE, dp.l1_distance("i32"), ["a"], "b")
    assert error.value.parameter == "input_metric"


def test_contract_verifies_and_a_halved_map_is_refuted():
    dp.enable_features("contrib")
    report = contract_of(dp.t.make_index).verify()
    assert report.examples > 0 and report.max_tightness == 1
    fixed = dataclasses.replace(
        contract_of(dp.t.make_index),
        arguments=lambda: st.just({"input_domain": USIZE, "input_metric": dp.symmetric_distance(),
                                   "categories": ["a"], "null": "b", "TOA": None}),
    )  # fmt: skip
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_features("contrib")
    dp.enable_contracts()
    assert dp.t.make_index(USIZE, dp.symmetric_distance(), ["a"], "b")([0, 1]) == ["a", "b"]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_index(USIZE, dp.symmetric_distance(), [], "b")
    assert error.value.condition == "toa-known"
