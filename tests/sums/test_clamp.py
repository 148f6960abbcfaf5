"""make_clamp: values (with OpenDP 0.16's behaviour on -0.0 and infinities), domains, the
NaN rule, typed errors, the contract and the refuted wrong map."""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import FailedFunctionError, MakeDomainError, MakeTransformationError


def ints(size=None, bounds=None, T="i32"):
    return dp.vector_domain(dp.atom_domain(bounds=bounds, T=T), size=size)


def floats(size=None, T="f64"):
    return dp.vector_domain(dp.atom_domain(T=T, nan=False), size=size)


def test_integers_are_clamped_and_the_map_is_the_identity():
    t = dp.t.make_clamp(ints(), dp.symmetric_distance(), (0, 10))
    assert t([-5, 3, 20]) == [0, 3, 10]
    assert t([]) == []
    assert [t.map(d) for d in range(4)] == [0, 1, 2, 3]
    assert t.output_domain == ints(bounds=(0, 10))
    assert t.output_metric == dp.symmetric_distance()


def test_size_and_metric_are_kept():
    t = dp.t.make_clamp(ints(size=3), dp.insert_delete_distance(), (-1, 1))
    assert t([5, -5, 0]) == [1, -1, 0]
    assert t.output_domain == ints(size=3, bounds=(-1, 1))
    assert t.output_metric == dp.insert_delete_distance()


def test_input_bounds_are_replaced_by_the_new_bounds():
    t = dp.t.make_clamp(ints(bounds=(-5, 5)), dp.symmetric_distance(), (0, 10))
    assert t.output_domain == ints(bounds=(0, 10))
    assert t([-5, 5]) == [0, 5]


def test_floats_follow_opendp_on_signed_zero_and_infinities():
    t = dp.t.make_clamp(floats(), dp.symmetric_distance(), (0.0, 10.0))
    out = t([-1.0, 5.5, 11.0, -0.0, math.inf, -math.inf])
    assert out == [0.0, 5.5, 10.0, -0.0, 10.0, 0.0]
    assert math.copysign(1.0, out[3]) == -1.0  # -0.0 lies in [0.0, 10.0] and is kept
    zero = dp.t.make_clamp(floats(), dp.symmetric_distance(), (-0.0, 0.0))
    out = zero([1.0, -1.0, 0.0, -0.0])
    assert [math.copysign(1.0, v) for v in out] == [1.0, -1.0, 1.0, -1.0]


def test_numpy_arrays_stay_arrays_of_the_carrier_dtype():
    t = dp.t.make_clamp(ints(T="u8"), dp.symmetric_distance(), (10, 200))
    out = t(np.array([0, 255, 100], dtype=np.uint8))
    assert isinstance(out, np.ndarray) and out.dtype == np.uint8
    assert out.tolist() == [10, 200, 100]
    f32 = dp.t.make_clamp(floats(T="f32"), dp.symmetric_distance(), (0.0, 1.5))
    out = f32(np.array([-2.0, 0.25, 3.0], dtype=np.float32))
    assert out.dtype == np.float32 and out.tolist() == [0.0, 0.25, 1.5]


def test_numpy_scalars_of_other_widths():
    # a float32 scalar is compared by its exact value (NumPy would compare it in binary32)
    t = dp.t.make_clamp(floats(), dp.symmetric_distance(), (0.0, 0.1))
    assert t([np.float32(0.1), 0.05]) == [0.1, 0.05]
    assert t([np.float64(0.2), 0.05]) == [0.1, 0.05]
    # f32 data may hold float64 scalars with binary32 values; outputs are Python floats
    f32 = dp.t.make_clamp(floats(T="f32"), dp.symmetric_distance(), (0.0, 0.5))
    out = f32([np.float64(0.75), np.float32(0.25), 0.125])
    assert out == [0.5, 0.25, 0.125] and all(type(v) is float for v in out)
    assert f32.output_domain.member(out)
    wide = dp.t.make_clamp(ints(T="i16"), dp.symmetric_distance(), (-3, 3))
    assert wide([np.int64(7), np.uint8(2), -9]) == [3, 2, -3]


def test_wide_integers_are_clamped_exactly():
    t = dp.t.make_clamp(ints(T="i128"), dp.symmetric_distance(), (-(2**100), 2**100))
    assert t([2**120, -(2**120), 5]) == [2**100, -(2**100), 5]


def test_then_clamp_chains():
    t = (ints(), dp.symmetric_distance()) >> dp.t.then_clamp((0, 10)) >> dp.t.then_sum()
    assert t([1, 20, -3]) == 11 and t.map(1) == 10


# -- errors -----------------------------------------------------------------------------------


def test_domain_with_nan_is_refused():
    with pytest.raises(MakeTransformationError, match="nan=False") as error:
        dp.t.make_clamp(
            dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance(), (0.0, 1.0)
        )
    assert error.value.parameter == "input_domain"


def test_nan_data_is_refused_at_invocation():
    t = dp.t.make_clamp(floats(), dp.symmetric_distance(), (0.0, 1.0))
    with pytest.raises(FailedFunctionError):
        t([0.5, math.nan])


@pytest.mark.parametrize(
    "bounds, rule",
    [
        ((10, 0), "must not exceed"),
        ((0.0, 1.0), "not a value of i32"),
        ((0, 2**40), "not a value of i32"),
        ((0, 1, 2), "pair"),
    ],
)
def test_bad_integer_bounds_are_refused(bounds, rule):
    with pytest.raises(MakeDomainError, match=rule) as error:
        dp.t.make_clamp(ints(), dp.symmetric_distance(), bounds)
    assert error.value.parameter == "bounds"


@pytest.mark.parametrize(
    "bounds, rule", [((0.0, math.nan), "NaN"), ((0.0, math.inf), "finite"), ((1.0, 0.0), "exceed")]
)
def test_bad_float_bounds_are_refused(bounds, rule):
    with pytest.raises(MakeDomainError, match=rule) as error:
        dp.t.make_clamp(floats(), dp.symmetric_distance(), bounds)
    assert error.value.parameter == "bounds"


@pytest.mark.parametrize("metric", [dp.l1_distance("i32"), dp.absolute_distance("i32")])
def test_wrong_metric_is_refused(metric):
    with pytest.raises(MakeTransformationError, match="symmetric_distance") as error:
        dp.t.make_clamp(ints(), metric, (0, 1))
    assert error.value.parameter == "input_metric"


@pytest.mark.parametrize(
    "domain",
    [
        dp.atom_domain(T="i32"),
        dp.vector_domain(dp.vector_domain(dp.atom_domain(T="i32"))),
        dp.vector_domain(dp.atom_domain(T="String")),
        dp.vector_domain(dp.atom_domain(T="bool")),
    ],
)
def test_wrong_domain_is_refused(domain):
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_clamp(domain, dp.symmetric_distance(), (0, 1))
    assert error.value.parameter == "input_domain"


def test_out_of_domain_data_is_refused():
    t = dp.t.make_clamp(ints(size=2), dp.symmetric_distance(), (0, 1))
    for data in ([1, 2, 3], [1.0, 2.0], [2**40, 1], "ab"):
        with pytest.raises(FailedFunctionError):
            t(data)


# -- contract ----------------------------------------------------------------------------------


def test_contract_verifies():
    report = contract_of(dp.t.make_clamp).verify()
    assert report.examples > 0 and report.max_tightness == 1


def test_a_map_below_the_identity_is_refuted():
    fixed = dataclasses.replace(
        contract_of(dp.t.make_clamp),
        arguments=lambda: st.just(
            {"input_domain": ints(), "input_metric": dp.symmetric_distance(), "bounds": (0, 10)}
        ),
    )
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    assert dp.t.make_clamp(ints(), dp.symmetric_distance(), (0, 10))([11]) == [10]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_clamp(
            dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance(), (0.0, 1.0)
        )
    assert error.value.condition == "input-domain-nan-free"
