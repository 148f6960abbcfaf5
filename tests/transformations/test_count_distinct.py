import dataclasses

import numpy as np
import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import (
    ArithmeticOverflowError,
    FailedFunctionError,
    FailedMapError,
    MakeTransformationError,
)


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def space(T="String", metric=None):
    return dp.vector_domain(dp.atom_domain(T=T)), metric or dp.symmetric_distance()


def test_counts_distinct_records_like_opendp():
    t = dp.t.make_count_distinct(*space())
    assert t(["a", "b", "a"]) == 2 and type(t(["a"])) is int
    assert t([]) == 0
    assert t.output_domain == dp.atom_domain(T="i32")
    assert t.output_metric == dp.absolute_distance("i32")
    assert [t.map(d) for d in (0, 1, 2, 3, 2**31 - 1)] == [0, 1, 2, 3, 2147483647]


@pytest.mark.parametrize(
    ("TO", "maps"),
    [
        # OpenDP 0.16's numbers for d_in = 0, 1, 2, 2**24 + 1, 2**31 - 1
        ("u32", [0, 1, 2, 16777217, 2147483647]),
        ("i64", [0, 1, 2, 16777217, 2147483647]),
        ("usize", [0, 1, 2, 16777217, 2147483647]),
        ("f32", [0.0, 1.0, 2.0, 16777218.0, 2147483648.0]),
        ("f64", [0.0, 1.0, 2.0, 16777217.0, 2147483647.0]),
    ],
)
def test_output_types_and_maps_like_opendp(TO, maps):
    t = dp.t.make_count_distinct(*space(), TO=TO)
    assert t(["a", "b", "a"]) == 2
    assert type(t(["a"])) is (float if TO.startswith("f") else int)
    assert [t.map(d) for d in (0, 1, 2, 2**24 + 1, 2**31 - 1)] == maps


def test_integer_map_is_checked_as_in_opendp():
    with pytest.raises(ArithmeticOverflowError) as error:
        dp.t.make_count_distinct(*space()).map(2**32 - 1)
    assert error.value.parameter == "d_in"


def test_integers_bools_numpy_and_saturation():
    t = dp.t.make_count_distinct(*space("u8"), TO="i8")
    assert t(np.arange(200, dtype=np.uint8)) == 127
    assert t(np.array([1, 1, 2], dtype=np.uint8)) == 2
    assert dp.t.make_count_distinct(*space("bool"))([True, True]) == 1


@pytest.mark.parametrize("d_in", [-1, 1.5, float("nan")])
def test_bad_distances_are_refused(d_in):
    with pytest.raises(FailedMapError):
        dp.t.make_count_distinct(*space()).map(d_in)


@pytest.mark.parametrize(
    ("args", "parameter"),
    [
        ((dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance()), "input_domain"),
        ((dp.atom_domain(T="i32"), dp.symmetric_distance()), "input_domain"),
        ((dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance("i32")), "input_metric"),
        ((*space(), "bool"), "TO"),
        ((*space(), "int32"), "TO"),
    ],
)
def test_bad_arguments_are_refused(args, parameter):
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_count_distinct(*args)
    assert error.value.parameter == parameter


def test_insert_delete_and_partial_form():
    t = space("i32", dp.insert_delete_distance()) >> dp.t.then_count_distinct(TO="u64")
    assert t([3, 1, 3]) == 2 and t.map(5) == 5


def test_out_of_domain_data_is_refused():
    t = dp.t.make_count_distinct(
        dp.vector_domain(dp.atom_domain(T="i32"), size=2), dp.symmetric_distance()
    )
    for data in ([1, 2, 3], ["a", "b"], 5):
        with pytest.raises(FailedFunctionError):
            t(data)


def test_agrees_with_opendp():
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    for data in (["a", "b", "a", "c"], [], ["x"] * 5):
        for TO in ("i32", "f64"):
            ours = dp.t.make_count_distinct(*space(), TO=TO)
            theirs = odp.t.make_count_distinct(
                odp.vector_domain(odp.atom_domain(T=str)), odp.symmetric_distance(), TO=TO
            )
            assert ours(data) == theirs(data)
            assert ours.map(3) == theirs.map(3)


def test_contract_verifies():
    report = contract_of(dp.t.make_count_distinct).verify(max_examples=200)
    assert report.examples > 0 and report.max_tightness == 1


def test_a_map_below_the_identity_is_refuted():
    fixed = dataclasses.replace(
        contract_of(dp.t.make_count_distinct),
        arguments=lambda: st.just(
            {"input_domain": space("u8")[0], "input_metric": dp.symmetric_distance(), "TO": "i32"}
        ),
    )
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    assert dp.t.make_count_distinct(*space())(["a", "a"]) == 1
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_count_distinct(*space(), TO="String")
    assert error.value.condition == "output-type-numeric"
