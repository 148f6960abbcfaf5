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
from certdp.core.partition_metrics import Triple


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def space(T="String", metric=None):
    return dp.vector_domain(dp.atom_domain(T=T)), metric or dp.symmetric_distance()


def test_counts_each_distinct_record_like_opendp():
    t = dp.t.make_count_by(*space())
    assert t(["a", "b", "a"]) == {"a": 2, "b": 1}
    assert t([]) == {}
    assert t.output_domain == dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i32"))
    assert t.output_metric == dp.l01inf_distance(dp.absolute_distance("i32"))
    # OpenDP 0.16 prints [(0, 0, 0), (1, 1, 1), (2, 2, 2), (3, 3, 3)]
    assert [t.map(d) for d in (0, 1, 2, 3)] == [(0, 0, 0), (1, 1, 1), (2, 2, 2), (3, 3, 3)]
    assert type(t.map(1)) is Triple


@pytest.mark.parametrize("TV", ["u32", "i64", "usize"])
def test_value_types_and_large_distances_like_opendp(TV):
    t = dp.t.make_count_by(*space(), TV=TV)
    assert t.output_metric == dp.l01inf_distance(dp.absolute_distance(TV))
    for d in (2**31 - 1, 2**32 - 1):
        assert t.map(d) == (d, d, d)


def test_an_integer_map_is_checked_as_in_opendp():
    t = dp.t.make_count_by(*space())
    assert t.map(2**31 - 1) == (2**31 - 1,) * 3
    with pytest.raises(ArithmeticOverflowError) as error:
        t.map(2**32 - 1)  # OpenDP 0.16: FailedCast("TryFromIntError(PosOverflow)")
    assert error.value.parameter == "d_in"


def test_float_values_and_their_map():
    t = dp.t.make_count_by(*space("i32"), TV="f32")
    assert t([1, 1, 2]) == {1: 2.0, 2: 1.0} and type(t([1])[1]) is float
    assert t.map(2**24 + 1) == (2**24 + 1, 16777218.0, 16777218.0)


def test_saturation_and_numpy_records():
    t = dp.t.make_count_by(*space("u8"), TV="i8")
    data = np.array([3] * 300 + [4], dtype=np.uint8)
    counted = t(data)
    assert counted == {3: 127, 4: 1} and all(type(k) is int for k in counted)


def test_check_compares_component_by_component():
    t = dp.t.make_count_by(*space())
    assert t.check(1, (1, 1, 1))
    assert not t.check(1, (2, 0, 0))  # lexicographically above (1, 1, 1), but not a bound
    assert not t.check(2, (2, 2, 1))


@pytest.mark.parametrize("d_in", [-1, 1.5, float("nan"), (1, 1, 1)])
def test_bad_distances_are_refused(d_in):
    with pytest.raises(FailedMapError):
        dp.t.make_count_by(*space()).map(d_in)


@pytest.mark.parametrize(
    ("args", "parameter"),
    [
        ((dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance()), "input_domain"),
        ((dp.atom_domain(T="i32"), dp.symmetric_distance()), "input_domain"),
        ((dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance("i32")), "input_metric"),
        ((*space(), "String"), "TV"),
        ((*space(), "f16"), "TV"),
    ],
)
def test_bad_arguments_are_refused(args, parameter):
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_count_by(*args)
    assert error.value.parameter == parameter


def test_insert_delete_and_partial_form():
    t = space("bool", dp.insert_delete_distance()) >> dp.t.then_count_by(TV="u64")
    assert t([True, False, True]) == {True: 2, False: 1}
    assert t.map(4) == (4, 4, 4)


def test_out_of_domain_data_is_refused():
    t = dp.t.make_count_by(
        dp.vector_domain(dp.atom_domain(T="i32"), size=2), dp.symmetric_distance()
    )
    for data in ([1, 2, 3], ["a", "b"], 5):
        with pytest.raises(FailedFunctionError):
            t(data)


def test_agrees_with_opendp():
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    data = ["a", "b", "a", "c", "c", "c"]
    for TV in ("i32", "u32", "i64"):
        ours = dp.t.make_count_by(*space(), TV=TV)
        theirs = odp.t.make_count_by(
            odp.vector_domain(odp.atom_domain(T=str)), odp.symmetric_distance(), TV=TV
        )
        assert ours(data) == theirs(data)
        assert [ours.map(d) for d in (0, 1, 7)] == [theirs.map(d) for d in (0, 1, 7)]
        assert repr(ours.output_metric) == str(theirs.output_metric)
        assert repr(ours.output_domain) == str(theirs.output_domain)


_INTEGERS = ("i8", "i16", "i32", "i64", "i128", "u8", "u16", "u32", "u64", "u128", "usize")


def _accepted(module, types, build):
    accepted = set()
    for T in types:
        try:
            build(module, T)
        except Exception:  # noqa: BLE001 - OpenDP raises its own error types
            continue
        accepted.add(T)
    return accepted


def test_accepted_key_and_value_types_are_the_ones_the_proof_lists():
    """make_count_by.tex, Differences from OpenDP 0.16: OpenDP's TK and TV sets, and certdp's."""
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    keys = (*_INTEGERS, "isize", "bool", "String")
    values = (*_INTEGERS, "isize", "f32", "f64")

    def by_value(m, TV):
        return m.t.make_count_by(
            m.vector_domain(m.atom_domain(T="i32")), m.symmetric_distance(), TV=TV
        )

    def by_key(m, TK):
        return m.t.make_count_by(m.vector_domain(m.atom_domain(T=TK)), m.symmetric_distance())

    opendp_values = {"i32", "i64", "u32", "u64", "usize"}
    opendp_keys = {"i32", "i64", "u32", "u64", "usize", "bool", "String"}
    assert _accepted(odp, values, by_value) == opendp_values
    assert _accepted(odp, keys, by_key) == opendp_keys
    assert _accepted(dp, values, by_value) == {*_INTEGERS, "f32", "f64"}
    assert _accepted(dp, keys, by_key) == {*_INTEGERS, "bool", "String"}
    u64 = dp.t.make_count_by(*space(), TV="u64")
    theirs = odp.t.make_count_by(
        odp.vector_domain(odp.atom_domain(T=str)), odp.symmetric_distance(), TV="u64"
    )
    assert [u64.map(d) for d in (0, 1, 2**32 - 1)] == [theirs.map(d) for d in (0, 1, 2**32 - 1)]


# -- contract ----------------------------------------------------------------------------------


def test_contract_verifies():
    report = contract_of(dp.t.make_count_by).verify(max_examples=200)
    assert report.examples > 0 and report.max_tightness == 1


@pytest.mark.parametrize("position", [0, 1, 2])
def test_a_map_lower_in_any_component_is_refuted(position):
    def lowered(d_in):
        triple = [d_in] * 3
        triple[position] = d_in // 2
        return Triple(triple)

    fixed = dataclasses.replace(
        contract_of(dp.t.make_count_by),
        arguments=lambda: st.just(
            {
                "input_domain": dp.vector_domain(dp.atom_domain(bounds=(0, 3), T="i32")),
                "input_metric": dp.symmetric_distance(),
                "TV": "i32",
            }
        ),
    )
    with pytest.raises(StabilityViolation):
        fixed.verify(max_examples=300, map_override=lowered)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    assert dp.t.make_count_by(*space())(["x"]) == {"x": 1}
    assert dp.t.make_count_by(*space()).map(2) == (2, 2, 2)
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_count_by(*space(), TV="bool")
    assert error.value.condition == "value-type-numeric"
