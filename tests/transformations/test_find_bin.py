"""make_find_bin: OpenDP 0.16's outputs, refused edges (unsorted, repeated, NaN), contract and
runtime enforcement."""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import MakeTransformationError


@pytest.fixture(autouse=True)
def _contrib():
    # A new constructor is not vetted yet: the gate asks for "contrib" until the lead vets it.
    dp.enable_features("contrib")


def vec(T, **kwargs):
    return dp.vector_domain(dp.atom_domain(T=T), **kwargs)


# Outputs observed on OpenDP 0.16.0 (make_find_bin, contrib).
OPENDP_CASES = [
    ("i32", [0, 10, 20], [-5, 0, 5, 10, 19, 20, 25], [0, 1, 1, 2, 2, 3, 3]),
    ("f64", [0.0, 1.0], [math.nan, -0.0, 1.0, math.inf, -math.inf], [2, 1, 2, 2, 0]),
    ("i32", [], [1, 2], [0, 0]),
]


@pytest.mark.parametrize("T, edges, data, expected", OPENDP_CASES)
def test_opendp_outputs(T, edges, data, expected):
    assert dp.t.make_find_bin(vec(T), dp.symmetric_distance(), edges)(data) == expected


@pytest.mark.parametrize("T", ["i32", "u64", "f32", "f64"])
def test_same_bins_as_opendp_on_edge_values(T):
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    if T.startswith("f"):
        edges = [-math.inf, -1.5, -0.0, 2.0**-149, 1e30]
        data = [math.nan, math.inf, -math.inf, -1.5, -1.6, 0.0, -0.0, 2.0**-149, 1e30, 7.0]
        element = odp.atom_domain(T=T, nan=True)
    else:
        low = 0 if T.startswith("u") else -(2**31)
        edges, data = [low, 3, 4, 2**31 - 1], [low, 2, 3, 4, 5, 2**31 - 1, low + 1]
        element = odp.atom_domain(T=T)
    theirs = odp.t.make_find_bin(odp.vector_domain(element), odp.symmetric_distance(), edges)
    ours = dp.t.make_find_bin(vec(T), dp.symmetric_distance(), edges)
    assert ours(data) == theirs(data)


def test_output_domain_arrays_and_partial_form():
    t = dp.t.make_find_bin(vec("f32", size=3), dp.insert_delete_distance(), [0.5])
    assert t.output_domain == dp.vector_domain(dp.atom_domain(T="usize"), size=3)
    assert t(np.array([0.25, 0.5, np.nan], dtype=np.float32)) == [0, 1, 1] and t.map(2) == 2
    t = (vec("i64"), dp.symmetric_distance()) >> dp.t.then_find_bin(edges=(1, 2))
    assert t([0, 1, 2]) == [0, 1, 2]


@pytest.mark.parametrize(
    "T, edges, rule",
    [("i32", [10, 0], "unique and ordered"), ("i32", [0, 0], "unique and ordered"),
     ("f64", [-0.0, 0.0], "unique and ordered"), ("f64", [0.0, math.nan], "NaN"),
     ("i32", [0, 1.5], "value of i32"), ("u8", [-1, 3], "value of u8"),
     ("i32", "01", "list or tuple"),
     ("i64", np.array(["2020-01-01"], dtype="datetime64[ns]"), "list or tuple"),
     ("i64", np.array([1, 2], dtype="timedelta64[s]"), "list or tuple"),
     ("f64", np.array([1.0, 2.0], dtype=np.longdouble), "list or tuple")],
)  # fmt: skip
def test_bad_edges_are_refused_naming_edges(T, edges, rule):
    with pytest.raises(MakeTransformationError, match=rule) as error:
        dp.t.make_find_bin(vec(T), dp.symmetric_distance(), edges)
    assert error.value.parameter == "edges"


def test_bad_domain_and_metric_are_refused():
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_find_bin(vec("String"), dp.symmetric_distance(), [])
    assert error.value.parameter == "input_domain"
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_find_bin(vec("i32"), dp.l1_distance("i32"), [])
    assert error.value.parameter == "input_metric"


def test_contract_verifies_and_a_halved_map_is_refuted():
    report = contract_of(dp.t.make_find_bin).verify()
    assert report.examples > 0 and report.max_tightness == 1
    fixed = dataclasses.replace(
        contract_of(dp.t.make_find_bin),
        arguments=lambda: st.just({"input_domain": vec("i32"),
                                   "input_metric": dp.symmetric_distance(), "edges": [0, 5]}),
    )  # fmt: skip
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    assert dp.t.make_find_bin(vec("i32"), dp.symmetric_distance(), [1])([0, 1]) == [0, 1]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_find_bin(vec("i32"), dp.symmetric_distance(), [2, 1])
    assert error.value.condition == "edges-strictly-increasing"
