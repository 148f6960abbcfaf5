"""make_np_count: exact figures (OpenDP 0.16's), saturation, bad inputs, contract."""

import dataclasses

import numpy as np
import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import ArithmeticOverflowError, ContractError, MakeTransformationError
from certdp.numpy.np_count.contract import CONTRACT

I32_MAX = (1 << 31) - 1


def count(**domain):
    return dp.numpy.make_np_count(dp.numpy.array2_domain(**domain), dp.symmetric_distance())


def test_unknown_size_matches_opendp():
    # OpenDP 0.16: make_np_count(array2_domain(T=float), symmetric_distance()) gives
    # AtomDomain(T=i32), AbsoluteDistance(i32), t(np.zeros((5, 2))) == 5, t.map(3) == 3
    t = count(T="f64")
    assert t(np.zeros((5, 2))) == 5
    assert t.map(3) == 3
    assert repr(t.output_domain) == "AtomDomain(T=i32)"
    assert repr(t.output_metric) == "AbsoluteDistance(i32)"


def test_known_size_matches_opendp():
    # OpenDP 0.16: with array2_domain(T=float, size=7), t(np.zeros((7, 2))) == 7, t.map(3) == 0
    t = count(T="f64", size=7)
    assert t(np.zeros((7, 2))) == 7
    assert t.map(3) == 0
    assert t.map(10**40) == 0


def test_every_member_type_and_width():
    for T, dtype in (("i32", np.int32), ("bool", np.bool_), ("f32", np.float32)):
        t = count(T=T)
        assert t(np.zeros((4, 3), dtype=dtype)) == 4
        assert t(np.zeros((0, 0), dtype=dtype)) == 0


def test_bounded_domain():
    t = count(norm=1.0, p=2, num_columns=2)
    assert t(np.array([[0.5, -0.5], [0.0, 1.0]])) == 2


def test_saturates_at_the_largest_i32():
    t = count(T="f64")
    assert t(np.zeros((I32_MAX, 0))) == I32_MAX
    assert t(np.zeros((I32_MAX + 1, 0))) == I32_MAX
    assert t(np.zeros((1 << 40, 0))) == I32_MAX


def test_map_refuses_a_distance_beyond_i32():
    t = count(T="f64")
    assert t.map(I32_MAX) == I32_MAX
    with pytest.raises(ArithmeticOverflowError) as raised:
        t.map(I32_MAX + 1)
    assert raised.value.parameter == "d_in"


@pytest.mark.parametrize(
    "domain, metric, parameter, message",
    [
        (dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance(), "input_domain", "array2_domain"),
        (dp.numpy.array2_domain(T="f64"), dp.insert_delete_distance(), "input_metric", "symmetric_distance"),
        (dp.numpy.array2_domain(T="f64"), dp.l1_distance(T="f64"), "input_metric", "symmetric_distance"),
    ],
)  # fmt: skip
def test_bad_input(domain, metric, parameter, message):
    with pytest.raises(MakeTransformationError, match=message) as raised:
        dp.numpy.make_np_count(domain, metric)
    assert raised.value.parameter == parameter


def test_out_of_domain_data_is_refused():
    t = count(T="f64", size=3, num_columns=2)
    for bad in (np.zeros((2, 2)), np.zeros((3, 1)), np.zeros(3), np.zeros((3, 2), np.float32)):
        with pytest.raises(dp.FailedFunctionError):
            t(bad)
    nan_free = count(T="f64", nan=False)
    with pytest.raises(dp.FailedFunctionError):
        nan_free(np.array([[np.nan]]))


def test_then_form_chains():
    space = dp.numpy.array2_domain(T="f64", num_columns=2), dp.symmetric_distance()
    t = space >> dp.numpy.then_np_count()
    assert t(np.ones((6, 2))) == 6 and t.map(2) == 2


def test_contract_verifies():
    report = CONTRACT.verify()
    assert report.examples > 0 and report.max_tightness <= 1


def test_contract_refutes_a_smaller_map():
    kwargs = {"input_domain": dp.numpy.array2_domain(T="f64", num_columns=1),
              "input_metric": dp.symmetric_distance()}  # fmt: skip
    fixed = dataclasses.replace(CONTRACT, arguments=lambda: st.just(kwargs))
    with pytest.raises(StabilityViolation) as raised:
        fixed.verify(map_override=lambda d_in: d_in // 2)
    assert raised.value.d_in > 0


def test_contract_at_run_time():
    dp.enable_contracts()
    with pytest.raises(ContractError) as raised:
        dp.numpy.make_np_count(dp.numpy.array2_domain(T="f64"), dp.insert_delete_distance())
    assert raised.value.condition == "input-metric-symmetric"
    t = count(T="f64")
    assert t(np.zeros((3, 1))) == 3 and t.map(2) == 2
