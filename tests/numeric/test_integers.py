"""Fixed-width integer arithmetic: checked, saturating, exact casts and folds."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from certdp.core.errors import ArithmeticOverflowError, FailedCastError, MakeDomainError
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

OPS = {
    "add": (checked_add, saturating_add, lambda a, b: a + b),
    "sub": (checked_sub, saturating_sub, lambda a, b: a - b),
    "mul": (checked_mul, saturating_mul, lambda a, b: a * b),
}


def _bounds(T):
    ty = carrier(T)
    return ty.min, ty.max


def _boundary_values(T):
    lo, hi = _bounds(T)
    return sorted({lo, lo + 1, -1 if lo < 0 else 0, 0, 1, 2, hi // 2, hi - 1, hi})


@st.composite
def typed_pair(draw):
    T = draw(st.sampled_from(INTEGER_TYPES))
    lo, hi = _bounds(T)
    values = st.one_of(st.integers(lo, hi), st.sampled_from(_boundary_values(T)))
    return T, draw(values), draw(values)


def _check_binary(name, T, a, b):
    checked, saturating, exact_op = OPS[name]
    lo, hi = _bounds(T)
    exact = exact_op(a, b)
    assert saturating(a, b, T) == min(max(exact, lo), hi)
    if lo <= exact <= hi:
        assert checked(a, b, T) == exact
    else:
        with pytest.raises(ArithmeticOverflowError) as err:
            checked(a, b, T)
        assert err.value.parameter == f"checked_{name}"
        assert str(a) in str(err.value) and str(b) in str(err.value) and T in str(err.value)


@pytest.mark.parametrize("name", OPS)
@given(args=typed_pair())
def test_checked_and_saturating_agree_with_exact(name, args):
    _check_binary(name, *args)


@pytest.mark.parametrize("T", INTEGER_TYPES)
@pytest.mark.parametrize("name", OPS)
def test_boundary_values_of_every_width(name, T):
    for a in _boundary_values(T):
        for b in _boundary_values(T):
            _check_binary(name, T, a, b)


@pytest.mark.parametrize("T", INTEGER_TYPES)
def test_boundary_overflows(T):
    lo, hi = _bounds(T)
    with pytest.raises(ArithmeticOverflowError):
        checked_add(hi, 1, T)
    with pytest.raises(ArithmeticOverflowError):
        checked_sub(lo, 1, T)
    with pytest.raises(ArithmeticOverflowError):
        checked_mul(hi, 2, T)
    assert saturating_add(hi, 1, T) == hi
    assert saturating_sub(lo, 1, T) == lo
    assert saturating_mul(hi, 2, T) == hi
    assert checked_add(hi - 1, 1, T) == hi
    assert checked_sub(lo + 1, 1, T) == lo
    if lo < 0:
        assert saturating_mul(lo, -1, T) == hi
        assert saturating_mul(hi, lo, T) == lo


@pytest.mark.parametrize("T", INTEGER_TYPES)
def test_checked_abs(T):
    lo, hi = _bounds(T)
    assert checked_abs(hi, T) == hi
    assert checked_abs(lo + 1, T) == abs(lo + 1)
    if lo < 0:
        with pytest.raises(ArithmeticOverflowError) as err:
            checked_abs(lo, T)
        assert err.value.parameter == "checked_abs" and str(lo) in str(err.value)
    else:
        assert checked_abs(lo, T) == 0


@pytest.mark.parametrize("T", INTEGER_TYPES)
@pytest.mark.parametrize(
    "op", [checked_add, checked_sub, checked_mul, saturating_add, saturating_sub, saturating_mul]
)
def test_operands_outside_the_type_are_rejected(op, T):
    lo, hi = _bounds(T)
    for bad in (lo - 1, hi + 1):
        with pytest.raises(FailedCastError) as err:
            op(bad, 0, T)
        assert err.value.parameter == "lhs" and str(bad) in str(err.value)
        with pytest.raises(FailedCastError) as err:
            op(0, bad, T)
        assert err.value.parameter == "rhs"
    with pytest.raises(FailedCastError):
        checked_abs(hi + 1, T)


@pytest.mark.parametrize("bad", [1.0, 0.5, True, np.bool_(False), "1", Fraction(1), None])
def test_non_integer_operands_are_rejected(bad):
    with pytest.raises(FailedCastError) as err:
        checked_add(bad, 1, "i32")
    assert err.value.parameter == "lhs"
    with pytest.raises(FailedCastError) as err:
        saturating_sum([1, bad], "i32")
    assert err.value.parameter == "values[1]"


def test_numpy_integer_operands():
    assert checked_add(np.int8(100), np.uint64(27), "i8") == 127
    assert saturating_add(np.uint64(2**64 - 1), 1, "u64") == 2**64 - 1
    assert type(checked_mul(np.int32(3), 4, "i32")) is int


@pytest.mark.parametrize("T", ["f32", "f64", "bool", "String"])
def test_non_integer_types_are_rejected(T):
    with pytest.raises(MakeDomainError) as err:
        checked_add(1, 1, T)
    assert err.value.parameter == "T"
    with pytest.raises(MakeDomainError):
        saturating_sum([1], T)


# ---------------------------------------------------------------- exact_cast


@pytest.mark.parametrize("T", INTEGER_TYPES)
def test_exact_cast_integer_boundaries(T):
    lo, hi = _bounds(T)
    for ok in (lo, hi, 0, float(hi // 2 + 1) if hi < 2**53 else hi):
        assert exact_cast(ok, T) == ok and type(exact_cast(ok, T)) is int
    for bad in (lo - 1, hi + 1):
        with pytest.raises(FailedCastError) as err:
            exact_cast(bad, T)
        assert err.value.parameter == "value" and T in str(err.value)


@pytest.mark.parametrize(
    "value, T",
    [
        (2**31, "i32"),
        (-(2**31) - 1, "i32"),
        (-1, "u8"),
        (0.5, "i32"),
        (Fraction(7, 2), "i64"),
        (math.nan, "i32"),
        (math.nan, "f64"),
        (math.inf, "i64"),
        (-math.inf, "u8"),
        (2**53 + 1, "f64"),
        (2**24 + 1, "f32"),
        (0.1, "f32"),
        (Fraction(1, 3), "f64"),
        (2**1024, "f64"),
        (1e39, "f32"),
        (True, "i32"),
        ("1", "i32"),
        (np.float64(np.nan), "u64"),
    ],
)
def test_exact_cast_failures(value, T):
    with pytest.raises(FailedCastError) as err:
        exact_cast(value, T)
    assert err.value.parameter == "value"


@pytest.mark.parametrize(
    "value, T, expected",
    [
        (2**31 - 1, "i32", 2**31 - 1),
        (3.0, "u8", 3),
        (-0.0, "i8", 0),
        (Fraction(6, 2), "i16", 3),
        (np.float32(2.0**40), "i64", 2**40),
        (2**53, "f64", 2.0**53),
        (2**24, "f32", 2.0**24),
        (0.5, "f32", 0.5),
        (Fraction(3, 4), "f64", 0.75),
        (np.int64(-7), "f32", -7.0),
        (math.inf, "f64", math.inf),
        (-math.inf, "f32", -math.inf),
        (2**127, "u128", 2**127),
    ],
)
def test_exact_cast_successes(value, T, expected):
    result = exact_cast(value, T)
    assert result == expected and type(result) is type(expected)


@given(value=st.integers(-(2**130), 2**130), T=st.sampled_from(INTEGER_TYPES))
def test_exact_cast_integers_iff_in_range(value, T):
    lo, hi = _bounds(T)
    if lo <= value <= hi:
        assert exact_cast(value, T) == value
    else:
        with pytest.raises(FailedCastError):
            exact_cast(value, T)


@given(value=st.integers(-(2**60), 2**60))
def test_exact_cast_into_floats_iff_exact(value):
    for T, dtype in (("f64", np.float64), ("f32", np.float32)):
        if int(dtype(value)) == value:
            assert exact_cast(value, T) == value
        else:
            with pytest.raises(FailedCastError):
                exact_cast(value, T)


def test_exact_cast_rejects_non_numeric_type():
    with pytest.raises(MakeDomainError):
        exact_cast(1, "String")


# ---------------------------------------------------------------- folds


def _reference_saturating(values, T):
    lo, hi = _bounds(T)
    total = 0
    for v in values:
        total = min(max(total + int(v), lo), hi)
    return total


def _reference_checked(values, T):
    """The exact sum, or the index of the first partial sum out of range."""
    lo, hi = _bounds(T)
    total = 0
    for i, v in enumerate(values):
        total += int(v)
        if not lo <= total <= hi:
            return None, i
    return total, None


@st.composite
def typed_values(draw, max_size=60):
    T = draw(st.sampled_from(INTEGER_TYPES))
    lo, hi = _bounds(T)
    element = st.one_of(
        st.integers(lo, hi),
        st.sampled_from([lo, hi, 0, hi // 3]),
        st.integers(-100, 100).filter(lambda v: lo <= v <= hi),
    )
    return T, draw(st.lists(element, max_size=max_size))


@given(args=typed_values())
def test_saturating_sum_matches_loop(args):
    T, values = args
    expected = _reference_saturating(values, T)
    assert saturating_sum(values, T) == expected
    dtype = carrier(T).numpy_dtype
    if dtype.kind != "O":
        assert saturating_sum(np.array(values, dtype=dtype), T) == expected


@given(args=typed_values())
def test_checked_sum_matches_loop(args):
    T, values = args
    total, bad = _reference_checked(values, T)
    dtype = carrier(T).numpy_dtype
    inputs = [values] + ([np.array(values, dtype=dtype)] if dtype.kind != "O" else [])
    for data in inputs:
        if bad is None:
            assert checked_sum(data, T) == total
        else:
            with pytest.raises(ArithmeticOverflowError) as err:
                checked_sum(data, T)
            assert err.value.parameter == "checked_sum"
            assert f"values[{bad}]" in str(err.value) and T in str(err.value)


@pytest.mark.parametrize("T", ["i8", "u16", "i32", "u32", "i64", "u64"])
def test_saturating_sum_of_a_long_array(T):
    lo, hi = _bounds(T)
    rng = np.random.default_rng(7)
    dtype = carrier(T).numpy_dtype
    # Mostly small steps with occasional extreme ones, so the sum saturates and recovers.
    values = rng.integers(lo // 4, hi // 4, size=30_001, dtype=dtype, endpoint=True)
    values[rng.integers(0, values.size, size=300)] = hi
    if lo < 0:
        values[rng.integers(0, values.size, size=300)] = lo
    assert saturating_sum(values, T) == _reference_saturating(values.tolist(), T)


@pytest.mark.parametrize("T", INTEGER_TYPES)
def test_folds_at_the_boundaries(T):
    lo, hi = _bounds(T)
    assert saturating_sum([], T) == 0 and checked_sum([], T) == 0
    assert saturating_sum([hi, hi, -1 if lo < 0 else 0], T) == (hi - 1 if lo < 0 else hi)
    assert saturating_sum([hi, 1], T) == hi
    assert checked_sum([hi], T) == hi
    with pytest.raises(ArithmeticOverflowError, match=r"values\[1\]"):
        checked_sum([hi, 1], T)
    if lo < 0:
        assert saturating_sum([lo, -1, hi], T) == -1
        assert checked_sum([lo, hi], T) == -1
        with pytest.raises(ArithmeticOverflowError, match=r"values\[2\]"):
            checked_sum([-1, lo + 1, -1, 5], T)


@pytest.mark.parametrize("fold", [saturating_sum, checked_sum])
def test_fold_operands_outside_the_type_are_rejected(fold):
    with pytest.raises(FailedCastError) as err:
        fold([1, 2, 128], "i8")
    assert err.value.parameter == "values[2]"
    with pytest.raises(FailedCastError) as err:
        fold(np.array([1, -1, 3], dtype=np.int64), "u8")
    assert err.value.parameter == "values[1]"
    with pytest.raises(FailedCastError) as err:
        fold(np.array([0.5, 1.0]), "i32")
    assert err.value.parameter == "values[0]"
    with pytest.raises(FailedCastError) as err:
        fold(np.zeros((2, 2), dtype=np.int64), "i32")
    assert err.value.parameter == "values"


# A NumPy long double beyond the binary64 range is finite: it is refused, never cast to inf.
@pytest.mark.skipif(
    np.finfo(np.longdouble).max <= np.finfo(np.float64).max,
    reason="long double is binary64 on this platform",
)
@pytest.mark.parametrize("T", ["f64", "f32", "i64", "u128"])
@pytest.mark.parametrize("sign", [1, -1])
def test_exact_cast_of_a_long_double_beyond_binary64(T, sign):
    value = sign * np.longdouble(2) ** 2000
    assert not np.isinf(value)
    with pytest.raises(FailedCastError, match="value"):
        exact_cast(value, T)
    assert exact_cast(np.longdouble(2) ** 100, "f64") == 2.0**100


@pytest.mark.parametrize("fold", [saturating_sum, checked_sum])
@pytest.mark.parametrize("T", ["i8", "i64", "u128"])
@pytest.mark.parametrize("bad", [5, None, 2.5, {1, 2, 3}, {1: 2}, (v for v in [1, 2])])
def test_folds_refuse_what_is_not_a_sequence(fold, T, bad):
    with pytest.raises(FailedCastError) as raised:
        fold(bad, T)
    assert raised.value.parameter == "values"


@pytest.mark.parametrize("fold", [saturating_sum, checked_sum])
def test_folds_take_tuples_and_ranges(fold):
    assert fold((1, 2, 3), "i8") == fold(range(1, 4), "u128") == 6
