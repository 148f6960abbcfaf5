"""make_np_clamp: clamped rows are exactly within the norm; bad inputs; contract."""

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import ContractError, MakeTransformationError
from certdp.numpy._support.strategies import arrays
from certdp.numpy.np_clamp.contract import CONTRACT


def clamp(T="f64", num_columns=None, metric=None, **kwargs):
    domain = dp.numpy.array2_domain(T=T, num_columns=num_columns)
    return dp.numpy.make_np_clamp(domain, metric or dp.symmetric_distance(), **kwargs)


def exact_norm(row, origin, p):
    offsets = [Fraction(v) - Fraction(o) for v, o in zip(row.tolist(), origin)]
    return sum(abs(d) for d in offsets) if p == 1 else sum(d * d for d in offsets)


def test_rows_scaled_onto_the_ball():
    transformation = clamp(num_columns=2, norm=2.0, p=2, origin=np.array([1.0, 1.0]))
    assert str(transformation.output_domain) == (
        "NPArray2Domain(origin=[1. 1.], norm=2.0, p=2, num_columns=2, nan=False, T=f64)"
    )
    data = np.array([[10.0, 1.0], [1.0, 3.0], [1.0, 1.0], [-5.0, 9.0]])
    result = transformation(data)
    assert result[1].tolist() == [1.0, 3.0] and result[2].tolist() == [1.0, 1.0]  # kept
    assert np.allclose(result[0], [3.0, 1.0]) and np.allclose(result[3], [-0.2, 2.6])
    for row in result:
        assert exact_norm(row, [1, 1], 2) <= 4
    assert transformation.output_domain.member(result)
    assert data.tolist()[0] == [10.0, 1.0]  # the input is not modified


def test_non_finite_entries():
    transformation = clamp(num_columns=2, norm=1.0, p=1, origin=np.array([0.5, -0.5]))
    data = np.array([[np.nan, 0.0], [np.inf, -np.inf], [np.nan, np.nan], [1.7e308, -1.7e308]])
    result = transformation(data)
    assert result[0].tolist() == [0.5, 0.0]  # NaN replaced by the origin's entry
    assert result[2].tolist() == [0.5, -0.5]
    assert np.allclose(result[1], [1.0, -1.0]) and np.allclose(result[3], [1.0, -1.0])
    assert transformation.output_domain.member(result)


def test_identity_on_members():
    transformation = clamp(T="f32", num_columns=3, norm=1.0, p=2)
    data = np.array([[0.6, 0.0, -0.8], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]], dtype=np.float32)
    inside = [bool(exact_norm(r, [0, 0, 0], 2) <= 1) for r in data]
    result = transformation(data)
    for row, kept, original in zip(result, inside, data):
        if kept:
            assert row.tolist() == original.tolist()
    assert result.dtype == np.float32 and transformation.output_domain.member(result)


def test_large_origin_f32_falls_back_to_the_origin():
    # around 2**24 the float32 spacing is 2: no float32 point but O lies in a ball of radius 0.1
    origin = np.array([2.0**24, -(2.0**24)])
    transformation = clamp(T="f32", num_columns=2, norm=0.1, p=2, origin=origin)
    result = transformation(np.array([[2.0**24 + 8, 0.0], [2.0**24, -(2.0**24)]], dtype=np.float32))
    assert result.tolist() == [[2.0**24, -(2.0**24)], [2.0**24, -(2.0**24)]]


def test_metrics_and_map():
    for metric in (dp.symmetric_distance(), dp.insert_delete_distance()):
        transformation = clamp(norm=1.0, p=1, metric=metric)
        assert transformation.input_metric == transformation.output_metric == metric
        assert [transformation.map(d) for d in (0, 1, 7)] == [0, 1, 7]
    sized = dp.numpy.make_np_clamp(
        dp.numpy.array2_domain(T="f64", size=3, num_columns=2), dp.symmetric_distance(), 1.0, 2
    )
    assert sized.output_domain.size == 3 and sized.output_domain.num_columns == 2


def test_scalar_origin():
    transformation = clamp(num_columns=2, norm=1.0, p=1, origin=3.0)
    assert transformation.output_domain.origin.tolist() == [3.0, 3.0]
    result = transformation(np.array([[0.0, 0.0]]))
    assert np.allclose(result, [[2.5, 2.5]], rtol=1e-15, atol=0)
    assert exact_norm(result[0], [3, 3], 1) <= 1  # just inside: the margin of a few ulps


@pytest.mark.parametrize(
    "domain, metric, kwargs, error, parameter, message",
    [
        (dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance(), {}, MakeTransformationError, "input_domain", "array2_domain of f32 or f64"),
        (dp.numpy.array2_domain(T="i32"), dp.symmetric_distance(), {}, MakeTransformationError, "input_domain", "array2_domain of f32 or f64"),
        (dp.numpy.array2_domain(T="f64"), dp.l2_distance(T="f64"), {}, MakeTransformationError, "input_metric", "symmetric_distance"),
        (dp.numpy.array2_domain(T="f64"), dp.symmetric_distance(), {"norm": 0.0}, MakeTransformationError, "norm", "positive and finite"),
        (dp.numpy.array2_domain(T="f64"), dp.symmetric_distance(), {"norm": -1.0}, MakeTransformationError, "norm", "positive and finite"),
        (dp.numpy.array2_domain(T="f64"), dp.symmetric_distance(), {"norm": float("nan")}, MakeTransformationError, "norm", "positive and finite"),
        (dp.numpy.array2_domain(T="f64"), dp.symmetric_distance(), {"norm": float("inf")}, MakeTransformationError, "norm", "positive and finite"),
        (dp.numpy.array2_domain(T="f64"), dp.symmetric_distance(), {"norm": "1"}, MakeTransformationError, "norm", "must be a number"),
        (dp.numpy.array2_domain(T="f64"), dp.symmetric_distance(), {"norm": 10**400}, MakeTransformationError, "norm", "not exactly representable in f64"),
        (dp.numpy.array2_domain(T="f64"), dp.symmetric_distance(), {"p": 3}, MakeTransformationError, "p", "must be 1 or 2"),
        (dp.numpy.array2_domain(T="f64"), dp.symmetric_distance(), {"origin": [1.0, 2.0]}, MakeTransformationError, "input_domain", "num_columns=2"),
        (dp.numpy.array2_domain(T="f64", num_columns=3), dp.symmetric_distance(), {"origin": [1.0, 2.0]}, MakeTransformationError, "origin", "num_columns=3"),
        (dp.numpy.array2_domain(T="f64"), dp.symmetric_distance(), {"origin": 2.0}, MakeTransformationError, "origin", "needs num_columns"),
        (dp.numpy.array2_domain(T="f64", num_columns=1), dp.symmetric_distance(), {"origin": [np.inf]}, MakeTransformationError, "origin", "finite"),
        (dp.numpy.array2_domain(T="f32", num_columns=1), dp.symmetric_distance(), {"origin": [0.1]}, MakeTransformationError, "origin", "value of f32"),
    ],
)  # fmt: skip
def test_bad_input(domain, metric, kwargs, error, parameter, message):
    arguments = {"norm": 1.0, "p": 2} | kwargs
    with pytest.raises(error, match=message) as raised:
        dp.numpy.make_np_clamp(domain, metric, **arguments)
    assert raised.value.parameter == parameter


def test_contract_verifies():
    report = CONTRACT.verify()
    assert report.examples > 0 and report.max_tightness <= 1


def test_contract_refutes_a_zero_map():
    kwargs = {
        "input_domain": dp.numpy.array2_domain(T="f64", num_columns=2),
        "input_metric": dp.symmetric_distance(),
        "norm": 1.0,
        "p": 2,
        "origin": None,
    }
    fixed = dataclasses.replace(CONTRACT, arguments=lambda: st.just(kwargs))
    with pytest.raises(StabilityViolation) as raised:
        fixed.verify(map_override=lambda d_in: 0)
    violation = raised.value
    assert violation.d_in > 0
    assert dp.symmetric_distance().distance(violation.x, violation.x_prime) > 0


def test_contract_precondition_at_run_time():
    dp.enable_contracts()
    with pytest.raises(ContractError) as raised:
        clamp(norm=1.0, p=2, origin=[1.0, 2.0])
    assert raised.value.condition == "origin-valid"
    transformation = clamp(num_columns=2, norm=1.0, p=2)
    assert transformation(np.array([[3.0, 4.0]])).shape == (1, 2)
    assert transformation.map(4) == 4


@st.composite
def clamp_cases(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    k = draw(st.integers(1, 4))
    p = draw(st.sampled_from([1, 2]))
    norm = draw(st.sampled_from([1e-30, 1e-3, 0.7, 1.0, 3.0, 1e20]))
    scale = draw(st.sampled_from([0.0, 1.0, 1e5, 1e30]))
    dtype = np.float32 if T == "f32" else np.float64
    origin = np.array([draw(st.floats(-1, 1, width=32)) * scale for _ in range(k)])
    origin = origin.astype(dtype).astype(np.float64)
    transformation = clamp(T=T, num_columns=k, norm=norm, p=p, origin=origin)
    data = draw(arrays(transformation.input_domain, max_size=8, k=k))
    return transformation, data, origin, p, norm


@given(clamp_cases())
def test_every_output_row_is_exactly_within_the_norm(case):
    transformation, data, origin, p, norm = case
    result = transformation(data)
    assert result.shape == data.shape and result.dtype == data.dtype
    for row, original in zip(result, data):
        assert exact_norm(row, origin, p) <= Fraction(norm) ** p
        if np.all(np.isfinite(original)) and exact_norm(original, origin, p) <= Fraction(norm) ** p:
            assert row.tolist() == original.tolist()
    # row by row: a row's image does not depend on the other rows
    if data.shape[0] > 1:
        assert transformation(data[1:]).tolist() == result[1:].tolist()


def test_global_numpy_error_setting_raises_nothing():
    """An underflow while scaling a row must not become an error that depends on the data."""
    transformation = clamp(num_columns=2, norm=1.0, p=2)
    data = np.array([[10.0, 3e-310], [np.inf, -np.nan], [0.5, 0.5]])
    with np.errstate(all="raise"):
        result = transformation(data)
    assert result[2].tolist() == [0.5, 0.5] and result[0][1] > 0
    assert transformation.output_domain.member(result)


def test_a_row_image_does_not_depend_on_the_batch():
    """Rows alone and in batches of many shapes get bit-identical images (no reduction whose
    order numpy could choose from the shape of the batch)."""
    rng = np.random.default_rng(7)
    for k in (3, 9, 130):
        transformation = clamp(num_columns=k, norm=1.0, p=2)
        data = rng.standard_normal((70, k)) * 10.0 ** rng.integers(-3, 3, (70, k))
        together = transformation(data)
        for i in range(0, 70, 7):
            assert transformation(data[i : i + 1]).tobytes() == together[i].tobytes()
