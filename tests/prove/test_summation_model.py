"""The summation models equal the code bit for bit on random concrete data (no third truth)."""

import math
import struct

import numpy as np
import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

from certdp.contracts.smt import float_of, float_sort, float_value, int_value
from certdp.core.errors import ArithmeticOverflowError
from certdp.core.types import INTEGER_TYPES, carrier
from certdp.numeric import checked_sum
from certdp.transformations._summation import smt_model
from certdp.transformations._summation.float_summation import (
    float_sum,
    parse_summation,
    saturating_float_sum,
)
from certdp.transformations._summation.integer_summation import (
    exact_sum,
    monotonic_saturating_sum,
    ordered_saturating_sum,
    split_saturating_sum,
)


def _terms(values, T):
    return [int_value(v, T.bits) for v in values]


def _as_int(expression, T) -> int:
    value = z3.simplify(expression).as_long()
    return value - (1 << T.bits) if T.is_signed and value >> (T.bits - 1) else value


@st.composite
def typed_values(draw, max_size=6, same_sign=False):
    T = carrier(draw(st.sampled_from(INTEGER_TYPES)))
    low, high = T.min, T.max
    if same_sign and T.is_signed and draw(st.booleans()):
        high = 0
    elif same_sign:
        low = max(low, 0)
    edge = st.sampled_from([low, high, 0, 1, -1 if low < 0 else 1, low // 2, high // 2])
    values = draw(st.lists(st.one_of(edge, st.integers(low, high)), max_size=max_size))
    return T, [v for v in values if low <= v <= high]


@given(typed_values())
def test_saturating_fold_is_the_ordered_sum(case):
    T, values = case
    model = smt_model.saturating_fold(_terms(values, T), T.bits, T.is_signed)
    assert _as_int(model, T) == ordered_saturating_sum(values, T)


@given(typed_values(same_sign=True))
def test_saturating_fold_is_the_monotonic_sum_on_one_sign(case):
    T, values = case
    model = smt_model.saturating_fold(_terms(values, T), T.bits, T.is_signed)
    assert _as_int(model, T) == monotonic_saturating_sum(values, T)


@given(typed_values())
def test_split_fold_is_the_split_sum(case):
    T, values = case
    model = smt_model.split_fold(_terms(values, T), T.bits, T.is_signed)
    assert _as_int(model, T) == split_saturating_sum(values, T)


@given(typed_values())
def test_checked_fold_is_the_checked_and_the_exact_sum(case):
    T, values = case
    total, overflowed = smt_model.checked_fold(_terms(values, T), T.bits, T.is_signed)
    try:
        expected = checked_sum(values, T.name)
    except ArithmeticOverflowError:
        assert z3.is_true(z3.simplify(overflowed))
    else:
        assert z3.is_false(z3.simplify(overflowed))
        assert _as_int(total, T) == expected == exact_sum(values)


def _exact(values):
    return [z3.IntVal(v) for v in values]


def _int_of(expression) -> int:
    return z3.simplify(expression).as_long()


@given(typed_values())
def test_exact_saturating_fold_is_the_ordered_sum(case):
    T, values = case
    assert _int_of(smt_model.exact_saturating_fold(_exact(values), T)) == (
        ordered_saturating_sum(values, T)
    )


@given(typed_values(same_sign=True))
def test_exact_saturating_fold_is_the_monotonic_sum_on_one_sign(case):
    T, values = case
    assert _int_of(smt_model.exact_saturating_fold(_exact(values), T)) == (
        monotonic_saturating_sum(values, T)
    )


@given(typed_values())
def test_exact_split_fold_is_the_split_sum(case):
    T, values = case
    assert _int_of(smt_model.exact_split_fold(_exact(values), T)) == (
        split_saturating_sum(values, T)
    )


@given(typed_values())
def test_exact_checked_fold_is_the_checked_sum(case):
    T, values = case
    total, overflowed = smt_model.exact_checked_fold(_exact(values), T)
    try:
        expected = checked_sum(values, T.name)
    except ArithmeticOverflowError:
        assert z3.is_true(z3.simplify(overflowed))
    else:
        assert z3.is_false(z3.simplify(overflowed))
        assert _int_of(total) == expected == exact_sum(values)


@given(typed_values())
def test_exact_and_bit_vector_folds_agree(case):
    """The two encodings of the saturating fold are the same function on every value of T."""
    T, values = case
    bit_vector = _as_int(smt_model.saturating_fold(_terms(values, T), T.bits, T.is_signed), T)
    assert bit_vector == _int_of(smt_model.exact_saturating_fold(_exact(values), T))


def _bits(value: float, fmt: str) -> int:
    return (
        struct.unpack("<I", struct.pack("<f", value))[0]
        if fmt == "f32"
        else (struct.unpack("<Q", struct.pack("<d", value))[0])
    )


@st.composite
def float_data(draw):
    fmt = draw(st.sampled_from(["f32", "f64"]))
    width = 32 if fmt == "f32" else 64
    large = float(np.finfo(np.float32 if fmt == "f32" else np.float64).max)
    special = st.sampled_from([0.0, -0.0, 1.0, -1.0, large, -large, large / 2, 1e-45, -3.5])
    value = st.floats(allow_nan=False, allow_infinity=False, width=width)
    values = draw(st.lists(st.one_of(special, value), max_size=7))
    if fmt == "f32":
        values = [float(np.float32(v)) for v in values]
    return fmt, values


@pytest.mark.parametrize("algorithm", ["Sequential", "Pairwise"])
@given(case=float_data(), saturate=st.booleans())
def test_float_models_are_the_float_sums_bit_for_bit(algorithm, case, saturate):
    fmt, values = case
    sort = float_sort(fmt)
    kernel = smt_model.sequential_fold if algorithm == "Sequential" else smt_model.pairwise_tree
    model = float_of(kernel([float_value(v, sort) for v in values], sort, saturate))
    summation = parse_summation(f"{algorithm}<{fmt}>")
    code = (saturating_float_sum if saturate else float_sum)(summation, values)
    if math.isnan(code):
        assert math.isnan(model)
    else:
        assert _bits(model, fmt) == _bits(code, fmt)


@pytest.mark.parametrize("name", sorted(smt_model.INTEGER_SUMS))
def test_symmetric_form_agrees_with_the_fold_on_a_sample(name):
    """A quick concrete look at what obligation ``fold == symmetric form`` proves."""
    _, metric, kind = smt_model.INTEGER_SUMS[name]
    if metric != "symmetric":
        return
    T = carrier("i8")
    values = [-3, 5, 5, 4] if kind != "monotonic" else [5, 5, 4, 2]
    fold, _ = smt_model._int_kernel(kind, T)(_exact(values))
    symmetric, _ = smt_model.canonical_model(kind, T)(_exact(values[::-1]))
    assert _int_of(fold) == _int_of(symmetric)
