"""make_unordered: outputs, OpenDP 0.16's map, bad input, contract."""

import dataclasses

import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import FailedMapError, MakeTransformationError


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


@pytest.mark.parametrize(
    "metric, output",
    [(dp.insert_delete_distance(), dp.symmetric_distance()),
     (dp.hamming_distance(), dp.change_one_distance())],
)  # fmt: skip
@pytest.mark.parametrize("size", [None, 3])
def test_identity_map_like_opendp(metric, output, size):
    domain = dp.vector_domain(dp.atom_domain(T="i32"), size=size)
    t = dp.t.make_unordered(domain, metric)
    assert t.output_metric == output and t.output_domain == domain
    # OpenDP 0.16: make_unordered(vector_domain(atom_domain(T=int)), metric).map(d)
    assert [t.map(d) for d in (0, 1, 2, 3, 2**32 - 1)] == [0, 1, 2, 3, 4294967295]
    data = [1, 2, 3]
    assert t(data) == data and t(data) is not data


def test_a_non_integer_d_in_is_refused_under_hamming():
    t = dp.t.make_unordered(dp.vector_domain(dp.atom_domain(T="i32")), dp.hamming_distance())
    with pytest.raises(FailedMapError) as error:
        t.map(1.5)
    assert error.value.parameter == "d_in"


def test_partial_form():
    space = (dp.vector_domain(dp.atom_domain(T="String")), dp.insert_delete_distance())
    t = space >> dp.t.then_unordered()
    assert t(["b", "a"]) == ["b", "a"] and t.map(2) == 2


@pytest.mark.parametrize(
    "domain, metric, parameter",
    [
        (dp.atom_domain(T="i32"), dp.insert_delete_distance(), "input_domain"),
        (dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), "input_metric"),
        (dp.vector_domain(dp.atom_domain(T="i32")), dp.change_one_distance(), "input_metric"),
        (dp.vector_domain(dp.atom_domain(T="i32")), None, "input_metric"),
    ],
)
def test_bad_input_is_refused_with_the_parameter(domain, metric, parameter):
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_unordered(domain, metric)
    assert error.value.parameter == parameter


def test_contract_verifies_and_a_halved_map_is_refuted():
    report = contract_of(dp.t.make_unordered).verify()
    assert report.examples > 0 and report.max_tightness == 1
    fixed = dataclasses.replace(
        contract_of(dp.t.make_unordered),
        arguments=lambda: st.just(
            {"input_domain": dp.vector_domain(dp.atom_domain(T="i32"), size=3),
             "input_metric": dp.hamming_distance()}
        ),
    )  # fmt: skip
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_unordered(dp.atom_domain(T="i32"), dp.insert_delete_distance())
    assert error.value.condition == "vector"
