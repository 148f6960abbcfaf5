"""Integer arithmetic with the overflow semantics of Rust's fixed-width integers.

For ``T`` in i8 ... i128, u8 ... u128 and usize (64 bits):

* ``checked_*`` return the exact result or raise :class:`ArithmeticOverflowError`
  (naming the operation, operands and ``T``) when it lies outside ``[T.min, T.max]``;
* ``saturating_*`` clamp the exact result to ``[T.min, T.max]``;
* ``saturating_sum`` / ``checked_sum`` are ``fold(0, saturating_add)`` /
  ``fold(0, checked_add)`` over a sequence.

Operands must be integers (Python ``int`` or numpy integer scalars, not ``bool``)
inside ``T``'s range; anything else raises :class:`FailedCastError` naming the operand.
Results are Python ints.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from ..core.conversion import NUMPY_FLOAT_TYPES, NUMPY_INTEGER_TYPES, exact_scalar
from ..core.errors import ArithmeticOverflowError, FailedCastError, MakeDomainError, shown
from ..core.exact_type import is_exact_fraction, type_is
from ..core.types import CarrierType, carrier
from .floats import is_representable

__all__ = [
    "checked_abs",
    "checked_add",
    "checked_mul",
    "checked_sub",
    "checked_sum",
    "exact_cast",
    "saturating_add",
    "saturating_mul",
    "saturating_sub",
    "saturating_sum",
]


# proof: begin int-operands
def _int_type(T) -> CarrierType:
    ty = carrier(T)
    if not ty.is_integer:
        raise MakeDomainError(
            f"integer operations need an integer type, not {ty.name}", parameter="T"
        )
    return ty


def _describe_range(ty: CarrierType) -> str:
    return f"the {ty.name} range [{ty.min}, {ty.max}]"


def _operand(x, name: str, op: str, ty: CarrierType) -> int:
    kind = type(x)
    if not type_is(x, int, *NUMPY_INTEGER_TYPES):  # label: int-type
        described = shown(x) if type_is(x, bool, float, Fraction, str) else f"a {kind.__name__}"
        raise FailedCastError(
            f"{op} needs an integer of type {ty.name}, not {described}", parameter=name
        )
    value = int(x)
    if not ty.min <= value <= ty.max:  # label: operand-range
        raise FailedCastError(
            f"{op} operand {shown(value)} is outside {_describe_range(ty)}", parameter=name
        )
    return value


def _checked(op: str, expr: str, exact: int, ty: CarrierType) -> int:
    if not ty.min <= exact <= ty.max:  # label: checked-range
        raise ArithmeticOverflowError(
            f"{expr} = {shown(exact)} is outside {_describe_range(ty)}", parameter=op
        )
    return exact


def _clamp(exact: int, ty: CarrierType) -> int:
    return min(max(exact, ty.min), ty.max)  # label: clamp


# proof: end int-operands


# proof: begin checked
def checked_add(a, b, T) -> int:
    """``a + b``, raising :class:`ArithmeticOverflowError` if it is outside ``T``."""
    ty = _int_type(T)
    x, y = _operand(a, "lhs", "checked_add", ty), _operand(b, "rhs", "checked_add", ty)
    return _checked("checked_add", f"{shown(x)} + {shown(y)}", x + y, ty)


def checked_sub(a, b, T) -> int:
    """``a - b``, raising :class:`ArithmeticOverflowError` if it is outside ``T``."""
    ty = _int_type(T)
    x, y = _operand(a, "lhs", "checked_sub", ty), _operand(b, "rhs", "checked_sub", ty)
    return _checked("checked_sub", f"{shown(x)} - {shown(y)}", x - y, ty)


def checked_mul(a, b, T) -> int:
    """``a * b``, raising :class:`ArithmeticOverflowError` if it is outside ``T``."""
    ty = _int_type(T)
    x, y = _operand(a, "lhs", "checked_mul", ty), _operand(b, "rhs", "checked_mul", ty)
    return _checked("checked_mul", f"{shown(x)} * {shown(y)}", x * y, ty)


def checked_abs(a, T) -> int:
    """``|a|``, raising :class:`ArithmeticOverflowError` if it is outside ``T`` (``abs(T.min)``)."""
    ty = _int_type(T)
    x = _operand(a, "x", "checked_abs", ty)
    return _checked("checked_abs", f"|{shown(x)}|", abs(x), ty)


# proof: end checked


# proof: begin saturating
def saturating_add(a, b, T) -> int:
    """``a + b`` clamped to ``[T.min, T.max]``."""
    ty = _int_type(T)
    return _clamp(
        _operand(a, "lhs", "saturating_add", ty) + _operand(b, "rhs", "saturating_add", ty), ty
    )


def saturating_sub(a, b, T) -> int:
    """``a - b`` clamped to ``[T.min, T.max]``."""
    ty = _int_type(T)
    return _clamp(
        _operand(a, "lhs", "saturating_sub", ty) - _operand(b, "rhs", "saturating_sub", ty), ty
    )


def saturating_mul(a, b, T) -> int:
    """``a * b`` clamped to ``[T.min, T.max]``."""
    ty = _int_type(T)
    return _clamp(
        _operand(a, "lhs", "saturating_mul", ty) * _operand(b, "rhs", "saturating_mul", ty), ty
    )


# proof: end saturating


# proof: begin exact-cast
def exact_cast(value, T):
    """``value`` as a ``T`` (int for integer types, float for f32/f64), only if exact.

    Raises :class:`FailedCastError` when ``value`` is not exactly a ``T`` value:
    out of range, fractional (into an integer type), needing rounding (into a float
    type), NaN, or ±inf into an integer type.  ±inf into f32/f64 is returned as is.
    """
    ty = carrier(T)
    if not ty.is_numeric:
        raise MakeDomainError(f"exact_cast needs a numeric type, not {ty.name}", parameter="T")
    kind = type(value)
    if kind is bool or kind is np.bool_:
        raise FailedCastError(f"{shown(value)} is a bool, not a number", parameter="value")
    if type_is(value, int, *NUMPY_INTEGER_TYPES):
        exact = Fraction(int(value))  # label: cast-int
    elif type_is(value, float, *NUMPY_FLOAT_TYPES):
        # in value's own format: math.isinf would make a finite long double beyond the
        # binary64 range infinite, and it would be returned as inf
        if np.isnan(value):  # label: cast-nan
            raise FailedCastError(f"NaN has no exact value in {ty.name}", parameter="value")
        if np.isinf(value):  # label: cast-inf
            if ty.is_float:
                return float(value)
            raise FailedCastError(
                f"{float(value)} is outside {_describe_range(ty)}", parameter="value"
            )
        exact = Fraction(*value.as_integer_ratio())  # label: cast-float
    elif kind is Fraction:  # one not as its constructor stores it: rebuilt exactly, or refused
        exact = (
            value if is_exact_fraction(value) else exact_scalar(value, "value")
        )  # label: cast-fraction
    elif issubclass(kind, numbers.Rational) and not issubclass(kind, (int, float, np.generic)):
        numerator, denominator = value.numerator, value.denominator  # label: cast-rational
        if type(numerator) is not int or type(denominator) is not int or denominator == 0:
            raise FailedCastError(
                "a rational whose numerator and denominator are not plain ints is refused",
                parameter="value",
            )
        exact = Fraction(numerator, denominator)
    else:
        raise FailedCastError(
            f"needs an int, float or Fraction, not {type(value).__name__}", parameter="value"
        )

    if ty.is_float:
        if not is_representable(exact, ty.name):  # label: cast-float-check
            raise FailedCastError(
                f"{shown(value)} is not exactly representable in {ty.name}", parameter="value"
            )
        return float(exact)  # label: cast-float-result
    if exact.denominator != 1:  # label: cast-integral
        raise FailedCastError(
            f"{shown(value)} is not an integer, so not exactly a {ty.name}", parameter="value"
        )
    if not ty.min <= exact.numerator <= ty.max:  # label: cast-range
        raise FailedCastError(f"{shown(value)} is outside {_describe_range(ty)}", parameter="value")
    return exact.numerator


# proof: end exact-cast


# proof: begin folds
def _values(values, op: str, ty: CarrierType):
    """Validate ``values``: an int64 array for widths <= 32 bits, else a list of Python ints."""
    narrow = ty.bits <= 32
    if type(values) is np.ndarray:  # label: values-plain-array
        if values.ndim != 1:
            raise FailedCastError(
                f"{op} needs a one-dimensional sequence, got shape {values.shape}",
                parameter="values",
            )
        if values.dtype.kind in "iu":
            if values.size and (int(values.min()) < ty.min or int(values.max()) > ty.max):
                for i, v in enumerate(values):
                    _operand(v, f"values[{i}]", op, ty)
            return values.astype(np.int64) if narrow else values.tolist()  # label: values-array
    elif not isinstance(values, Sequence):  # label: values-sequence
        raise FailedCastError(
            f"{op} needs a sequence (list, tuple or NumPy array), not {type(values).__name__}",
            parameter="values",
        )
    checked = [_operand(v, f"values[{i}]", op, ty) for i, v in enumerate(values)]
    return np.array(checked, dtype=np.int64) if narrow else checked


def saturating_sum(values, T) -> int:
    """``values`` summed left to right from 0, clamping to ``[T.min, T.max]`` after every
    addition (Rust's ``fold(0, saturating_add)``)."""
    ty = _int_type(T)
    vals = _values(values, "saturating_sum", ty)
    low, high = ty.min, ty.max
    if type(vals) is list:
        total = 0
        for v in vals:
            total = min(max(total + v, low), high)  # label: saturating-loop
        return total
    if vals.size == 0:
        return 0
    # Each step x -> clamp(x + v, lo, hi) is a triple (v, lo, hi), and such maps compose
    # into maps of the same shape:
    #   g∘f = (s_f + s_g, clamp(lo_f + s_g, lo_g, hi_g), clamp(hi_f + s_g, lo_g, hi_g)),
    # so the fold is a vectorised pairwise reduction.  Clamping shifts to ±(high - low)
    # leaves every map unchanged on [low, high] and keeps int64 exact (widths <= 32).
    span = high - low
    shift = vals
    lo = np.full(vals.shape, low, dtype=np.int64)
    hi = np.full(vals.shape, high, dtype=np.int64)
    while shift.size > 1:
        if shift.size % 2:
            shift = np.append(shift, 0)
            lo = np.append(lo, low)
            hi = np.append(hi, high)
        s_f, s_g = shift[0::2], shift[1::2]
        lo_f, lo_g, hi_f, hi_g = lo[0::2], lo[1::2], hi[0::2], hi[1::2]
        shift = np.clip(s_f + s_g, -span, span)  # label: compose-shift
        lo = np.minimum(np.maximum(lo_f + s_g, lo_g), hi_g)  # label: compose-lo
        hi = np.minimum(np.maximum(hi_f + s_g, lo_g), hi_g)  # label: compose-hi
    return int(min(max(int(shift[0]), int(lo[0])), int(hi[0])))  # label: apply-at-zero


def _overflowing_term(before: int, i: int, v: int, ty: CarrierType):
    _checked("checked_sum", f"partial sum {before} + values[{i}] = {before} + {v}", before + v, ty)


def checked_sum(values, T) -> int:
    """``values`` summed left to right from 0, raising :class:`ArithmeticOverflowError` at
    the first partial sum outside ``[T.min, T.max]`` (Rust's ``try_fold(0, checked_add)``)."""
    ty = _int_type(T)
    vals = _values(values, "checked_sum", ty)
    if type(vals) is list or vals.size >= 1 << 30:
        total = 0
        for i, v in enumerate(vals):
            if not ty.min <= total + int(v) <= ty.max:  # label: checked-loop
                _overflowing_term(total, i, int(v), ty)
            total += int(v)
        return total
    if vals.size == 0:
        return 0
    # int64 prefix sums are exact: fewer than 2**30 terms of magnitude <= 2**32.
    prefix = np.cumsum(vals)  # label: prefix
    outside = (prefix < ty.min) | (prefix > ty.max)  # label: outside
    if outside.any():
        i = int(np.argmax(outside))
        _overflowing_term(int(prefix[i - 1]) if i else 0, i, int(vals[i]), ty)
    return int(prefix[-1])  # label: checked-result


# proof: end folds
