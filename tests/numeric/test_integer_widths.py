"""Checked and saturating integer operations, one hypothesis search per width, against the
exact integer result (Python ints): checked ops return it or raise exactly when it leaves
``[T.min, T.max]``; saturating ops return it clamped; the folds equal the left-to-right fold
of the binary operation; ``exact_cast`` returns the value exactly or refuses it."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from certdp.core.errors import ArithmeticOverflowError, FailedCastError
from certdp.core.types import INTEGER_TYPES, carrier
from certdp.numeric import (
    checked_abs,
    checked_add,
    checked_mul,
    checked_sub,
    checked_sum,
    exact_cast,
    saturating_add,
    saturating_mul,
    saturating_sub,
    saturating_sum,
)

EXACT = {
    "add": (checked_add, saturating_add, lambda a, b: a + b),
    "sub": (checked_sub, saturating_sub, lambda a, b: a - b),
    "mul": (checked_mul, saturating_mul, lambda a, b: a * b),
}


def values_of(T: str) -> st.SearchStrategy:
    ty = carrier(T)
    edges = sorted(
        {ty.min, ty.min + 1, ty.max, ty.max - 1, ty.max // 2, ty.max // 2 + 1, 0, 1, 2}
        | ({-1, -2, -(ty.max // 2) - 1} if ty.min < 0 else set())
    )
    return st.one_of(
        st.sampled_from(edges),
        st.integers(ty.min, ty.max),
        st.integers(-100, 100).filter(lambda v: ty.min <= v <= ty.max),
    )


@pytest.mark.parametrize("T", INTEGER_TYPES)
@pytest.mark.parametrize("name", EXACT)
@given(data=st.data())
def test_binary_ops_per_width(name, T, data):
    checked, saturating, exact_op = EXACT[name]
    ty = carrier(T)
    a, b = data.draw(values_of(T)), data.draw(values_of(T))
    exact = exact_op(a, b)
    assert saturating(a, b, T) == min(max(exact, ty.min), ty.max)
    if ty.min <= exact <= ty.max:
        result = checked(a, b, T)
        assert result == exact and type(result) is int
    else:
        with pytest.raises(ArithmeticOverflowError):
            checked(a, b, T)


@pytest.mark.parametrize("T", INTEGER_TYPES)
@given(data=st.data())
def test_checked_abs_per_width(T, data):
    ty = carrier(T)
    a = data.draw(values_of(T))
    if abs(a) <= ty.max:
        assert checked_abs(a, T) == abs(a)
    else:
        with pytest.raises(ArithmeticOverflowError):
            checked_abs(a, T)


def _fold(values, T, clamp: bool):
    ty = carrier(T)
    total = 0
    for v in values:
        total += v
        if clamp:
            total = min(max(total, ty.min), ty.max)
        elif not ty.min <= total <= ty.max:
            return None
    return total


@pytest.mark.parametrize("T", INTEGER_TYPES)
@given(data=st.data())
def test_folds_per_width(T, data):
    values = data.draw(st.lists(values_of(T), max_size=20))
    as_array = carrier(T).bits <= 64 and data.draw(st.booleans())
    given_values = np.array(values, dtype=carrier(T).numpy_dtype) if as_array else values
    assert saturating_sum(given_values, T) == _fold(values, T, clamp=True)
    expected = _fold(values, T, clamp=False)
    if expected is None:
        with pytest.raises(ArithmeticOverflowError):
            checked_sum(given_values, T)
    else:
        assert checked_sum(given_values, T) == expected


@pytest.mark.parametrize("T", INTEGER_TYPES)
@given(
    value=st.one_of(
        st.integers(-(1 << 130), 1 << 130),
        st.floats(allow_nan=False),
        st.fractions(),
        st.sampled_from([2**53 - 1, 2**53, 2**53 + 1, 2**63, 2**64, -(2**63) - 1, math.nan]),
    )
)
def test_exact_cast_per_width(T, value):
    ty = carrier(T)
    if isinstance(value, float) and not math.isfinite(value):
        with pytest.raises(FailedCastError):
            exact_cast(value, T)
        return
    exact = Fraction(value)
    if exact.denominator == 1 and ty.min <= exact <= ty.max:
        result = exact_cast(value, T)
        assert result == exact and type(result) is int
    else:
        with pytest.raises(FailedCastError):
            exact_cast(value, T)


@pytest.mark.parametrize("T", ["f32", "f64"])
@given(
    value=st.one_of(
        st.integers(-(1 << 1100), 1 << 1100),
        st.floats(allow_nan=False, allow_infinity=False),
        st.floats(allow_nan=False, allow_infinity=False, width=32),
        st.fractions(),
        st.sampled_from([2**24 + 1, 2**53 - 1, 2**53 + 1, 2**64, 0.1, -0.0, 5e-324, 1e-45]),
    )
)
def test_exact_cast_into_float_types(T, value):
    exact = Fraction(value)
    dtype = np.float32 if T == "f32" else np.float64
    # independent oracle: the nearest f64 (Python's correctly rounded conversion), then numpy
    try:
        nearest = float(exact)
    except OverflowError:
        nearest = math.inf
    with np.errstate(over="ignore"):
        is_value = math.isfinite(nearest) and Fraction(nearest) == exact
        is_value = is_value and math.isfinite(dtype(nearest)) and float(dtype(nearest)) == nearest
    if is_value:
        result = exact_cast(value, T)
        assert type(result) is float and Fraction(result) == exact
    else:
        with pytest.raises(FailedCastError):
            exact_cast(value, T)
