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


def space(T="i32", metric=None, **kwargs):
    return dp.vector_domain(dp.atom_domain(T=T, **kwargs)), metric or dp.symmetric_distance()


def test_counts_and_maps_like_opendp():
    t = dp.t.make_count(*space())
    assert t([1, 2, 3]) == 3 and type(t([1, 2, 3])) is int
    assert t([]) == 0
    assert t.map(3) == 3
    assert t.output_domain == dp.atom_domain(T="i32")
    assert t.output_metric == dp.absolute_distance("i32")
    assert t.input_metric == dp.symmetric_distance()


def test_partial_insert_delete_and_strings():
    t = space("String", dp.insert_delete_distance()) >> dp.t.then_count(TO="u64")
    assert t(["a", "b", "a"]) == 3
    assert t.map(5) == 5
    assert t.input_metric == dp.insert_delete_distance()
    assert t.output_metric == dp.absolute_distance("u64")


def test_float_output_is_a_float_and_the_map_rounds_up():
    t = dp.t.make_count(*space("f64"), TO="f32")
    assert t([0.5, float("nan")]) == 2.0 and type(t([0.5])) is float
    assert t.output_domain == dp.atom_domain(T="f32", nan=False)
    # 2**24 + 1 is not an f32: OpenDP 0.16 rounds the map up to 16777218.0
    assert t.map(2**24 + 1) == 16777218.0
    assert dp.t.make_count(*space(), TO="f64").map(2**24 + 1) == 16777217.0


def test_count_saturates_at_the_integer_maximum():
    t = dp.t.make_count(*space("u8"), TO="i8")
    assert t(np.zeros(300, dtype=np.uint8)) == 127
    assert t(np.zeros(127, dtype=np.uint8)) == 127
    assert t(np.zeros(126, dtype=np.uint8)) == 126
    assert dp.t.make_count(*space("u8"), TO="u8")(np.zeros(300, dtype=np.uint8)) == 255


def test_count_saturates_at_the_largest_exact_float():
    t = dp.t.make_count(*space("i8"), TO="f32")
    data = np.zeros(2**24 + 3, dtype=np.int8)
    assert t(data) == 16777216.0
    assert t(data[: 2**24 - 1]) == 16777215.0


def test_integer_map_is_checked():
    t = dp.t.make_count(*space(), TO="i8")
    assert t.map(127) == 127
    with pytest.raises(ArithmeticOverflowError, match="not a value of i8") as error:
        t.map(128)
    assert error.value.parameter == "d_in"


@pytest.mark.parametrize("d_in", [-1, 1.5, float("nan"), True])
def test_bad_distances_are_refused(d_in):
    with pytest.raises(FailedMapError) as error:
        dp.t.make_count(*space()).map(d_in)
    assert error.value.parameter == "d_in"


def test_non_vector_domain_is_refused():
    with pytest.raises(MakeTransformationError, match="vector_domain") as error:
        dp.t.make_count(dp.atom_domain(T="i32"), dp.symmetric_distance())
    assert error.value.parameter == "input_domain"
    nested = dp.vector_domain(dp.vector_domain(dp.atom_domain(T="i32")))
    with pytest.raises(MakeTransformationError, match="atom_domain") as error:
        dp.t.make_count(nested, dp.symmetric_distance())
    assert error.value.parameter == "input_domain"


def test_numeric_metric_is_refused():
    with pytest.raises(MakeTransformationError, match="symmetric_distance") as error:
        dp.t.make_count(dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance("i32"))
    assert error.value.parameter == "input_metric"


@pytest.mark.parametrize("TO", ["bool", "String", "int32", "f16", 3])
def test_non_numeric_output_type_is_refused(TO):
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_count(*space(), TO=TO)
    assert error.value.parameter == "TO"


def test_out_of_domain_data_is_refused():
    t = dp.t.make_count(dp.vector_domain(dp.atom_domain(T="i32"), size=2), dp.symmetric_distance())
    for data in ([1, 2, 3], [1.0, 2.0], "ab", 5):
        with pytest.raises(FailedFunctionError):
            t(data)


# -- contract ----------------------------------------------------------------------------------


def test_contract_verifies():
    # 200 examples: in one full parallel run, 60 reached only tightness 0.5 (alone they reach 1)
    report = contract_of(dp.t.make_count).verify(max_examples=200)
    assert report.examples > 0 and report.max_tightness == 1


def test_a_map_below_the_identity_is_refuted():
    fixed = dataclasses.replace(
        contract_of(dp.t.make_count),
        arguments=lambda: st.just(
            {"input_domain": space()[0], "input_metric": dp.symmetric_distance(), "TO": "i32"}
        ),
    )
    with pytest.raises(StabilityViolation) as error:
        fixed.verify(map_override=lambda d_in: d_in // 2)
    violation = error.value
    assert abs(len(violation.x) - len(violation.x_prime)) > violation.d_in // 2


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    assert dp.t.make_count(*space())([1, 2]) == 2
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_count(*space(), TO="String")
    assert error.value.condition == "output-type-numeric"
