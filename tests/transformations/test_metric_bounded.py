"""make_metric_bounded: outputs, maps (OpenDP 0.16's where it is valid), bad input, contract."""

import dataclasses

import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import MakeTransformationError


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _sized(n=3, T="i32"):
    return dp.vector_domain(dp.atom_domain(T=T), size=n)


def test_symmetric_to_change_one_has_opendps_map():
    t = dp.t.make_metric_bounded(_sized(), dp.symmetric_distance())
    assert t.output_metric == dp.change_one_distance() and t.output_domain == _sized()
    # OpenDP 0.16: make_metric_bounded(vector_domain(atom_domain(T=int), size=3),
    # symmetric_distance()).map(d) for d = 0, 1, 2, 3 and 2**32 - 1
    assert [t.map(d) for d in (0, 1, 2, 3)] == [0, 0, 1, 1]
    assert t.map(2**32 - 1) == 2147483647
    data = [3, 1, 2]
    out = t(data)
    assert out == data and out is not data


def test_insert_delete_to_hamming_uses_the_size_not_opendps_half():
    t = dp.t.make_metric_bounded(_sized(), dp.insert_delete_distance())
    assert t.output_metric == dp.hamming_distance()
    # OpenDP 0.16 states [0, 0, 1, 1] here; a rotation shows that 1 is too small at d_in = 2
    assert [t.map(d) for d in (0, 1, 2, 3, 10**9)] == [0, 0, 3, 3, 3]
    x, x_prime = [1, 2, 3], [2, 3, 1]
    assert dp.insert_delete_distance().distance(x, x_prime) == 2
    assert dp.hamming_distance().distance(t(x), t(x_prime)) == 3 == t.map(2)


def test_partial_form():
    t = (_sized(2, "String"), dp.symmetric_distance()) >> dp.t.then_metric_bounded()
    assert t(["a", "b"]) == ["a", "b"] and t.map(4) == 2


@pytest.mark.parametrize(
    "domain, metric, parameter",
    [
        (dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), "input_domain"),
        (dp.atom_domain(T="i32"), dp.symmetric_distance(), "input_domain"),
        (_sized(), dp.change_one_distance(), "input_metric"),
        (_sized(), dp.hamming_distance(), "input_metric"),
        (_sized(), dp.absolute_distance(T="i32"), "input_metric"),
        (_sized(), "SymmetricDistance", "input_metric"),
    ],
)
def test_bad_input_is_refused_with_the_parameter(domain, metric, parameter):
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_metric_bounded(domain, metric)
    assert error.value.parameter == parameter


def test_contract_verifies_and_opendps_hamming_map_is_refuted():
    report = contract_of(dp.t.make_metric_bounded).verify()
    assert report.examples > 0
    fixed = dataclasses.replace(
        contract_of(dp.t.make_metric_bounded),
        arguments=lambda: st.just(
            {"input_domain": _sized(3), "input_metric": dp.insert_delete_distance()}
        ),
    )
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_metric_bounded(dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance())
    assert error.value.condition == "sized-vector"
