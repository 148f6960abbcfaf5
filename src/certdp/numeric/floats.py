"""Conservative (outward-rounded) arithmetic in binary32 (``"f32"``) and binary64 (``"f64"``).

Every ``inf_*`` operation returns the smallest ``T`` value that is ``>=`` the exact
real result, every ``neg_inf_*`` operation the largest ``T`` value that is ``<=`` it
(directed rounding, at most one ulp away).  Results are Python floats; an f32 result
is a Python float exactly representable in binary32.

Exact results are computed with :class:`fractions.Fraction` (add, sub, mul, div) or
exact integer square roots (sqrt), and rounded with :func:`round_rational`; the
exponential and logarithms are in ``elementary``.

Errors:

* a NaN or infinite operand, division by zero, sqrt of a negative number, and any exact result whose magnitude exceeds ``T``'s largest
  finite value, raise :class:`ArithmeticOverflowError` -- i.e. every case in which
  IEEE arithmetic could produce a non-finite value.  The overflow rule holds in
  both rounding directions: ``neg_inf_add(MAX, MAX)`` raises rather than returning
  ``MAX``, because a clamped bound would hide that the computation left the range;
* an operand that is not exactly a ``T`` value (e.g. ``0.1`` for an f32 operation,
  a Fraction such as 1/3, or something that is not a number) raises
  :class:`FailedCastError` naming the operand.  ``inf_cast`` / ``neg_inf_cast``
  take any exact finite number instead.
"""

from __future__ import annotations

import math
import numbers
import operator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..core.conversion import NUMPY_FLOAT_TYPES, NUMPY_INTEGER_TYPES, exact_scalar
from ..core.errors import (
    ArithmeticOverflowError,
    DPError,
    FailedCastError,
    MakeDomainError,
    shown,
)
from ..core.exact_type import is_exact_fraction, type_is
from ..core.types import carrier

__all__ = [
    "inf_add",
    "inf_cast",
    "inf_div",
    "inf_mul",
    "inf_sqrt",
    "inf_sub",
    "is_representable",
    "neg_inf_add",
    "neg_inf_cast",
    "neg_inf_div",
    "neg_inf_mul",
    "neg_inf_sqrt",
    "neg_inf_sub",
    "next_down",
    "next_up",
    "round_rational",
    "ulp",
]


# proof: begin formats
@dataclass(frozen=True)
class _Format:
    name: str
    precision: int  # significand bits, including the implicit one
    emin: int  # exponent of the smallest normal number
    emax: int  # 2**emax is the first power of two that overflows

    @property
    def max(self) -> Fraction:
        return Fraction((1 << self.precision) - 1) * Fraction(2) ** (self.emax - self.precision)

    @property
    def qmin(self) -> int:
        """Exponent of the smallest subnormal number."""
        return self.emin - self.precision + 1


_FORMATS = {
    "f64": _Format("f64", 53, -1022, 1024),
    "f32": _Format("f32", 24, -126, 128),
}
_F64 = _FORMATS["f64"]
_MAX = {name: fmt.max for name, fmt in _FORMATS.items()}
_DIRECTIONS = ("nearest", "up", "down")


def _format(T) -> _Format:
    if type(T) is str and T in _FORMATS:  # "f64" or "f32" itself  # label: format-name
        return _FORMATS[T]
    ty = carrier(T)
    if ty.name not in _FORMATS:
        raise MakeDomainError(f"float operations need f32 or f64, not {ty.name}", parameter="T")
    return _FORMATS[ty.name]


# proof: end formats


# proof: begin rounding
def _floor_log2(n: int, d: int) -> int:
    """floor(log2(n / d)) for positive integers n, d."""
    e = n.bit_length() - d.bit_length()  # label: floor-log2-guess
    if (n << max(-e, 0)) < (d << max(e, 0)):  # label: floor-log2-correct
        e -= 1
    return e


def _quantum(e: int, fmt: _Format) -> int:
    """Exponent of the ulp of numbers in binade ``[2**e, 2**(e+1))``."""
    return max(e, fmt.emin) - fmt.precision + 1  # label: quantum


def _finish(
    negative: bool, m: int, half_cmp: int, exact: bool, qe: int, fmt: _Format, direction: str
):
    """Round ``±(m + frac) * 2**qe`` with ``0 <= frac < 1`` and return a float.

    ``half_cmp`` is the sign of ``frac - 1/2``; ``exact`` says ``frac == 0``.
    Returns ``None`` when the rounded magnitude is infinite (overflow away from zero).
    """
    away_from_zero = direction != "nearest" and (direction == "up") != negative  # label: away
    if direction == "nearest":
        away = half_cmp > 0 or (half_cmp == 0 and m & 1)  # label: nearest-even
    else:
        away = away_from_zero
    r = m if exact or not away else m + 1  # label: increment
    if r.bit_length() + qe > fmt.emax:  # label: finish-overflow
        if direction == "nearest" or away_from_zero:
            return None
        value = float(fmt.max)  # label: finish-max
    else:
        value = math.ldexp(r, qe)  # label: finish-value
    return -value if negative else value  # label: finish-sign


def _round(q: Fraction, fmt: _Format, direction: str):
    if q == 0:
        return 0.0
    n, d = abs(q.numerator), q.denominator
    qe = _quantum(_floor_log2(n, d), fmt)  # label: round-quantum
    if qe >= 0:
        m, rem = divmod(n, d << qe)  # label: round-divmod-coarse
        den = d << qe
    else:
        m, rem = divmod(n << -qe, d)  # label: round-divmod-fine
        den = d
    twice = 2 * rem
    half_cmp = (twice > den) - (twice < den)
    return _finish(q < 0, m, half_cmp, rem == 0, qe, fmt, direction)  # label: round-finish


def round_rational(q, T="f64", direction="nearest") -> float:
    """Round the exact rational ``q`` to a ``T`` value: correctly rounded to nearest
    (ties to even), toward +inf (``"up"``) or toward -inf (``"down"``).

    A magnitude beyond ``T``'s finite range gives ``±MAX`` when rounding toward zero
    and raises :class:`ArithmeticOverflowError` when the IEEE result is infinite.
    """
    fmt = _format(T)
    if direction not in _DIRECTIONS:
        raise DPError(
            f"must be one of {', '.join(_DIRECTIONS)}, not {direction!r}", parameter="direction"
        )
    exact = _to_fraction(q, "q", "round_rational")
    result = _round(exact, fmt, direction)
    if result is None:
        raise ArithmeticOverflowError(
            f"{_describe(exact)} rounded {direction} is not finite in {fmt.name}", parameter="q"
        )
    return result


# proof: end rounding


# proof: begin operands
def _to_fraction(x, name: str, op: str) -> Fraction:
    """The exact value of a finite number (int, float, Fraction, numpy scalar).

    Types are tested exactly: a subclass (which may override ``__int__``, ``__float__`` or
    ``as_integer_ratio``) is refused like any other non-number."""
    kind = type(x)
    if kind is float:  # a Python float is binary64: comparisons decide NaN and infinity
        if x != x:  # label: float64-nan
            raise ArithmeticOverflowError(f"{op} got NaN", parameter=name)
        if x == math.inf or x == -math.inf:  # label: float64-inf
            raise ArithmeticOverflowError(f"{op} got {x}, which is not finite", parameter=name)
        return Fraction(*x.as_integer_ratio())  # label: float64-exact
    if kind is bool or kind is np.bool_:
        raise FailedCastError(f"{op} needs a number, not the bool {shown(x)}", parameter=name)
    if kind is Fraction:  # one not as its constructor stores it: rebuilt exactly, or refused
        return x if is_exact_fraction(x) else exact_scalar(x, name)  # label: fraction-exact
    if type_is(x, int, *NUMPY_INTEGER_TYPES):  # label: int-exact
        return Fraction(int(x))
    if type_is(x, *NUMPY_FLOAT_TYPES):  # a Python float returned above
        # np.isnan/np.isinf test x in its own format; math.isinf would first convert a
        # long double to binary64, making a finite value beyond its range infinite.
        if np.isnan(x):  # label: float-nan
            raise ArithmeticOverflowError(f"{op} got NaN", parameter=name)
        if np.isinf(x):  # label: float-inf
            raise ArithmeticOverflowError(
                f"{op} got {float(x)}, which is not finite", parameter=name
            )
        return Fraction(*x.as_integer_ratio())  # label: float-exact
    if issubclass(kind, numbers.Rational) and not issubclass(kind, (int, float, np.generic)):
        numerator, denominator = x.numerator, x.denominator  # label: rational
        if type(numerator) is int and type(denominator) is int and denominator != 0:
            return Fraction(numerator, denominator)
    raise FailedCastError(
        f"{op} needs an int, float or Fraction, not {type(x).__name__}", parameter=name
    )


def _representable(q: Fraction, fmt: _Format) -> bool:
    if q == 0:
        return True
    if abs(q) > _MAX[fmt.name]:
        return False
    n, d = abs(q.numerator), q.denominator
    qe = _quantum(_floor_log2(n, d), fmt)
    # within range, q is a T value iff it is an integer multiple of its binade's ulp
    return n % (d << qe) == 0 if qe >= 0 else (n << -qe) % d == 0  # label: representable-test


def _operand(x, name: str, op: str, fmt: _Format) -> Fraction:
    q = _to_fraction(x, name, op)
    if type(x) is float and fmt is _F64:  # label: operand-f64
        return q  # a finite Python float is a binary64 number
    if not _representable(q, fmt):
        raise FailedCastError(
            f"{op} operand {shown(x)} is not exactly representable in {fmt.name}", parameter=name
        )
    return q


def _describe(q: Fraction) -> str:
    """A short approximate rendering of a possibly huge rational."""
    if abs(q) < 2**1000:
        return f"{float(q):.17g}"
    return f"{'-' if q < 0 else ''}2**{_floor_log2(abs(q.numerator), q.denominator)}..."


def _bounded(exact: Fraction, fmt: _Format, op: str, expr, direction: str) -> float:
    """``exact`` rounded in ``direction``; ``expr`` (a text, or a function giving it, called
    only on overflow) describes it in the message."""
    if abs(exact) > _MAX[fmt.name]:  # label: bounded-overflow
        expr = expr() if callable(expr) else expr
        raise ArithmeticOverflowError(
            f"{expr} = {_describe(exact)} exceeds the finite range of {fmt.name}", parameter=op
        )
    return _round(exact, fmt, direction)  # label: bounded-round


# proof: end operands


# proof: begin binary
_OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


def _binary(op: str, symbol: str, direction: str):
    apply = _OPERATORS[symbol]

    def operation(a, b, T="f64") -> float:
        fmt = _format(T)
        x = _operand(a, "lhs", op, fmt)  # label: binary-lhs
        y = _operand(b, "rhs", op, fmt)  # label: binary-rhs
        if symbol == "/" and y == 0:  # label: binary-zero
            raise ArithmeticOverflowError(f"{op} divides {shown(a)} by zero", parameter="rhs")
        return _bounded(
            apply(x, y),
            fmt,
            op,
            lambda: f"lhs {symbol} rhs = {shown(a)} {symbol} {shown(b)}",  # label: binary-text
            direction,
        )

    operation.__name__ = operation.__qualname__ = op
    operation.__doc__ = (
        f"The {'smallest' if direction == 'up' else 'largest'} ``T`` value "
        f"{'>=' if direction == 'up' else '<='} the exact ``a {symbol} b``."
    )
    return operation


inf_add = _binary("inf_add", "+", "up")
inf_sub = _binary("inf_sub", "-", "up")
inf_mul = _binary("inf_mul", "*", "up")
inf_div = _binary("inf_div", "/", "up")
neg_inf_add = _binary("neg_inf_add", "+", "down")
neg_inf_sub = _binary("neg_inf_sub", "-", "down")
neg_inf_mul = _binary("neg_inf_mul", "*", "down")
neg_inf_div = _binary("neg_inf_div", "/", "down")
# proof: end binary


# proof: begin sqrt
def _sqrt(a, T, op: str, direction: str) -> float:
    fmt = _format(T)
    x = _operand(a, "x", op, fmt)
    if x < 0:
        raise ArithmeticOverflowError(
            f"{op} of the negative number {shown(a)} is not real", parameter="x"
        )
    if x == 0:
        return 0.0
    n, d = x.numerator, x.denominator
    # floor(log2(sqrt x)) == floor(floor(log2 x) / 2)
    qe = _quantum(_floor_log2(n, d) // 2, fmt)  # label: sqrt-quantum
    # sqrt(x) / 2**qe == sqrt(N / D)
    N, D = (n, d << (2 * qe)) if qe >= 0 else (n << (-2 * qe), d)  # label: sqrt-scale
    m = math.isqrt(N * D) // D  # label: sqrt-floor
    exact = m * m * D == N  # label: sqrt-exact
    four_n, mid = 4 * N, (2 * m + 1) ** 2 * D  # sqrt(N/D) vs m + 1/2, squared
    half_cmp = (four_n > mid) - (four_n < mid)  # label: sqrt-half
    return _finish(False, m, half_cmp, exact, qe, fmt, direction)  # label: sqrt-finish


def inf_sqrt(a, T="f64") -> float:
    """The smallest ``T`` value ``>= sqrt(a)``."""
    return _sqrt(a, T, "inf_sqrt", "up")


def neg_inf_sqrt(a, T="f64") -> float:
    """The largest ``T`` value ``<= sqrt(a)``."""
    return _sqrt(a, T, "neg_inf_sqrt", "down")


# proof: end sqrt


# proof: begin casts
def inf_cast(value, T="f64") -> float:
    """The smallest ``T`` value ``>= value`` for any finite exact number."""
    fmt = _format(T)
    return _bounded(
        _to_fraction(value, "value", "inf_cast"), fmt, "inf_cast", f"value = {shown(value)}", "up"
    )


def neg_inf_cast(value, T="f64") -> float:
    """The largest ``T`` value ``<= value`` for any finite exact number."""
    fmt = _format(T)
    return _bounded(
        _to_fraction(value, "value", "neg_inf_cast"),
        fmt,
        "neg_inf_cast",
        f"value = {shown(value)}",
        "down",
    )


# proof: end casts


# proof: begin neighbours
def ulp(x, T="f64") -> float:
    """The spacing of ``T`` values in the binade of ``|x|``: ``2**(max(e, emin) - p + 1)``
    with ``e = floor(log2 |x|)``; the smallest subnormal for ``x == 0``.

    Any finite ``x`` within ``T``'s range is accepted; it need not be a ``T`` value.
    For ``y`` the neighbour of a ``T`` value ``x`` away from zero, ``|y - x| == ulp(x)``;
    toward zero the gap is ``ulp(x)`` or ``ulp(x) / 2``.
    """
    fmt = _format(T)
    q = _to_fraction(x, "x", "ulp")
    if abs(q) > _MAX[fmt.name]:
        raise ArithmeticOverflowError(
            f"ulp of {shown(x)} is outside the finite range of {fmt.name}", parameter="x"
        )
    if q == 0:
        return math.ldexp(1.0, fmt.qmin)
    return math.ldexp(1.0, _quantum(_floor_log2(abs(q.numerator), q.denominator), fmt))


def _step(x, T, op: str, direction: str) -> float:
    fmt = _format(T)
    q = _operand(x, "x", op, fmt)
    # Strictly between q and its neighbour: T values are multiples of 2**qmin.
    nudge = Fraction(1, 1 << (1 - fmt.qmin))  # label: step-nudge
    result = _round(q + nudge if direction == "up" else q - nudge, fmt, direction)
    if result is None:
        raise ArithmeticOverflowError(
            f"{op} of {shown(x)} is not finite in {fmt.name}", parameter="x"
        )
    return result


def next_up(x, T="f64") -> float:
    """The smallest ``T`` value strictly greater than the ``T`` value ``x``."""
    return _step(x, T, "next_up", "up")


def next_down(x, T="f64") -> float:
    """The largest ``T`` value strictly less than the ``T`` value ``x``."""
    return _step(x, T, "next_down", "down")


def is_representable(x, T="f64") -> bool:
    """Is ``x`` a finite number exactly equal to a finite ``T`` value?  NaN, ±inf and
    non-numbers give ``False``."""
    fmt = _format(T)
    try:
        q = _to_fraction(x, "x", "is_representable")
    except DPError:
        return False
    return _representable(q, fmt)


# proof: end neighbours
