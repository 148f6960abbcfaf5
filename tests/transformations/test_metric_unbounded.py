"""make_metric_unbounded: outputs, OpenDP 0.16's map (without its u32 wrap), bad input,
contract."""

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


def _sized(n=3, T="i32"):
    return dp.vector_domain(dp.atom_domain(T=T), size=n)


@pytest.mark.parametrize(
    "metric, output",
    [(dp.change_one_distance(), dp.symmetric_distance()),
     (dp.hamming_distance(), dp.insert_delete_distance())],
)  # fmt: skip
def test_doubles_like_opendp(metric, output):
    t = dp.t.make_metric_unbounded(_sized(), metric)
    assert t.output_metric == output and t.output_domain == _sized()
    # OpenDP 0.16: make_metric_unbounded(vector_domain(atom_domain(T=int), size=3), metric)
    # .map(d) for d = 0, 1, 2, 3 and 2**31 - 1
    assert [t.map(d) for d in (0, 1, 2, 3)] == [0, 2, 4, 6]
    assert t.map(2**31 - 1) == 4294967294
    # OpenDP 0.16 returns 0 here (u32 wrap); the exact double is 2**32
    assert t.map(2**31) == 2**32
    data = [1, 2, 3]
    assert t(data) == data and t(data) is not data


def test_a_non_integer_d_in_is_refused():
    t = dp.t.make_metric_unbounded(_sized(), dp.change_one_distance())
    for d_in in (0.5, 1.0, float("inf")):
        with pytest.raises(FailedMapError) as error:
            t.map(d_in)
        assert error.value.parameter == "d_in"


def test_partial_form():
    t = (_sized(2, "String"), dp.hamming_distance()) >> dp.t.then_metric_unbounded()
    assert t(["a", "b"]) == ["a", "b"] and t.map(1) == 2


@pytest.mark.parametrize(
    "domain, metric, parameter",
    [
        (dp.vector_domain(dp.atom_domain(T="i32")), dp.change_one_distance(), "input_domain"),
        (dp.atom_domain(T="i32"), dp.hamming_distance(), "input_domain"),
        (_sized(), dp.symmetric_distance(), "input_metric"),
        (_sized(), dp.insert_delete_distance(), "input_metric"),
        (_sized(), dp.discrete_distance(), "input_metric"),
    ],
)
def test_bad_input_is_refused_with_the_parameter(domain, metric, parameter):
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_metric_unbounded(domain, metric)
    assert error.value.parameter == parameter


def test_contract_verifies_and_an_undoubled_map_is_refuted():
    report = contract_of(dp.t.make_metric_unbounded).verify()
    assert report.examples > 0 and report.max_tightness == 1
    fixed = dataclasses.replace(
        contract_of(dp.t.make_metric_unbounded),
        arguments=lambda: st.just(
            {"input_domain": _sized(3), "input_metric": dp.change_one_distance()}
        ),
    )
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_metric_unbounded(_sized(), dp.symmetric_distance())
    assert error.value.condition == "metric-pair"
