"""The exponential and the logarithms, rounded outward, from enclosures checked exactly.

Guarantee (elementary.tex): ``inf_exp(x)`` is the smallest ``T`` value ``>= exp(x)``,
``inf_ln_1p(x)`` the smallest ``>= ln(1 + x)``, ``inf_log2(a)`` the smallest ``>= log2(a)``
and ``neg_inf_log2(a)`` the largest ``<= log2(a)``; an exact result beyond ``T``'s finite
range, a NaN or infinite operand and an operand outside the domain raise
:class:`ArithmeticOverflowError`, an operand that is not a ``T`` value
:class:`FailedCastError`, as for the operations of ``floats``.

No floating point and no library enclosure is trusted: each value is enclosed by exact
rationals ``lo <= v <= hi`` from a series with a proven remainder (squarings rounded outward
for the exponential), and :func:`round_enclosure`, the one rule the functions here use, returns a
``T`` value only after exact comparisons show it is the directed rounding of ``v``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from ..core.errors import ArithmeticOverflowError, DPError, shown
from .floats import _MAX, _floor_log2, _Format, _format, _operand, _round

__all__ = ["inf_exp", "inf_ln_1p", "inf_log2", "neg_inf_log2", "round_enclosure"]


# proof: begin strict-enclosure
#: Working precision (bits) of the first enclosure; it doubles until the rounding is decided.
FIRST_PRECISION = 64  # label: first-precision


def round_enclosure(
    enclose: Callable[[int], tuple[Fraction, Fraction]], T="f64", direction: str = "up"
) -> float:
    """The smallest ``T`` value ``>= v`` (``"up"``) or the largest ``<= v`` (``"down"``), for
    the real ``v`` with ``lo <= v <= hi`` for every ``(lo, hi) = enclose(precision)``; raises
    :class:`ArithmeticOverflowError` when ``|v|`` exceeds ``T``'s finite range.

    The result is returned only when exact comparisons show it is on the required side of the
    whole enclosure and that its neighbour towards ``v`` lies beyond the other end. A
    ``direction`` other than ``"up"`` or ``"down"`` raises :class:`DPError` at once."""
    if direction not in ("up", "down"):  # label: direction
        raise DPError(f'must be "up" or "down", not {direction!r}', parameter="direction")
    fmt = _format(T)
    top = _MAX[fmt.name]
    precision = FIRST_PRECISION
    while True:
        lo, hi = enclose(precision)  # label: enclose
        if lo > top or hi < -top:  # v lies beyond the finite range  # label: beyond
            raise ArithmeticOverflowError(
                f"the exact value exceeds the finite range of {fmt.name}", parameter="x"
            )
        if -top <= lo and hi <= top:  # label: within
            result = _round(hi if direction == "up" else lo, fmt, direction)  # label: candidate
            other = _round(lo if direction == "up" else hi, fmt, direction)  # label: other-end
            exact = Fraction(result)
            on_side = exact >= hi if direction == "up" else exact <= lo  # label: strict-check
            if on_side and other == result:  # label: decided
                return result
        precision *= 2  # label: refine


# proof: end strict-enclosure


# proof: begin exp-enclosure
def _dyadic(m: int, e: int) -> Fraction:
    """The exact value ``m 2^e``."""
    return Fraction(m, 1 << -e) if e < 0 else Fraction(m << e)


def _square(m: int, e: int, bits: int, direction: str) -> tuple[int, int]:
    """``(m', e')`` with ``m' 2^e'`` the square of ``m 2^e`` (``m > 0``) cut to ``bits``
    significant bits, rounded down or up."""
    square = m * m
    shift = max(0, square.bit_length() - bits)  # label: square-shift
    if direction == "down":
        return square >> shift, 2 * e + shift  # label: square-down
    return -((-square) >> shift), 2 * e + shift  # label: square-up


def _exp_enclosure(x: Fraction, precision: int) -> tuple[Fraction, Fraction]:
    """Exact rationals ``lo <= exp(x) <= hi``, ``lo > 0``, for a rational ``x``."""
    if x == 0:
        return Fraction(1), Fraction(1)  # label: exp-zero
    halvings = max(0, _floor_log2(abs(x.numerator), x.denominator) + 2)  # label: exp-halvings
    y = x / (1 << halvings)  # |y| <= 1/2  # label: exp-reduced
    if halvings == 0:
        # exp(y) = sum of y^j / j!; after the terms below j >= 1 the rest is at most 2 |y^j / j!|
        total, term, index = Fraction(1), Fraction(1), 0
        threshold = Fraction(1, 1 << (precision + 2))
        while True:
            index += 1
            term = term * y / index  # label: exp-term
            if index >= 2 and abs(term) <= threshold:  # 1 + y is always summed
                break
            total += term  # label: exp-sum
        return total - 2 * abs(term), total + 2 * abs(term)  # exact  # label: exp-series
    # the same series in fixed point: integers enclosing |y|^j / j! and the sum, times 2^bits
    bits = precision + halvings + 8  # label: exp-bits
    num, den = abs(y.numerator), y.denominator
    t_lo = t_hi = s_lo = s_hi = 1 << bits
    index = 0
    while True:
        index += 1
        t_lo = t_lo * num // (den * index)  # label: fixed-term-lo
        t_hi = -(-t_hi * num // (den * index))  # label: fixed-term-hi
        if index >= 2 and t_hi <= 1 << (bits - precision - 2):
            break
        if y > 0 or index % 2 == 0:
            s_lo, s_hi = s_lo + t_lo, s_hi + t_hi  # label: fixed-add
        else:
            s_lo, s_hi = s_lo - t_hi, s_hi - t_lo  # label: fixed-subtract
    s_lo, s_hi = s_lo - 2 * t_hi, s_hi + 2 * t_hi  # label: fixed-rest
    lo, hi = (s_lo, -bits), (s_hi, -bits)
    for _ in range(halvings):  # exp(2y) = exp(y)^2, each square rounded outward
        lo, hi = _square(*lo, bits, "down"), _square(*hi, bits, "up")  # label: exp-square
    return _dyadic(*lo), _dyadic(*hi)


# proof: end exp-enclosure


# proof: begin ln-enclosure
def _atanh_series(z: Fraction, precision: int) -> tuple[Fraction, Fraction]:
    """Exact rationals enclosing ``2 atanh(z) = ln((1 + z) / (1 - z))``, for ``|z| <= 1/3``:
    the partial sum of ``2 z^(2j+1) / (2j+1)``, each term enclosed by integers times
    ``2^-work``, with the rest bounded by twice the next term."""
    if z == 0:
        return Fraction(0), Fraction(0)
    num, den = abs(z.numerator), z.denominator
    work = precision + 8 + max(0, -_floor_log2(num, den))  # label: atanh-work
    p_lo, p_hi = (2 * num << work) // den, -(-(2 * num << work) // den)  # 2|z| 2^work
    threshold = p_lo >> (precision + 2)  # at most 2|z| 2^(work - precision - 2)
    s_lo = s_hi = index = 0
    while True:
        t_lo, t_hi = p_lo // (2 * index + 1), -(-p_hi // (2 * index + 1))  # label: atanh-term
        if t_hi <= threshold:
            break
        s_lo, s_hi = s_lo + t_lo, s_hi + t_hi  # label: atanh-sum
        p_lo, p_hi = p_lo * num * num // (den * den), -(-p_hi * num * num // (den * den))
        index += 1
    low, high = Fraction(s_lo, 1 << work), Fraction(s_hi + 2 * t_hi, 1 << work)  # magnitude
    return (low, high) if z > 0 else (-high, -low)  # label: atanh-series


@lru_cache(maxsize=16)
def _ln2_enclosure(precision: int) -> tuple[Fraction, Fraction]:
    """Exact rationals enclosing ``ln 2 = 2 atanh(1/3)``."""
    return _atanh_series(Fraction(1, 3), precision)  # label: ln2


def _ln_parts(q: Fraction) -> tuple[int, Fraction]:
    """``(k, m)`` with ``q = m 2^k`` and ``2/3 < m <= 4/3``, for a rational ``q > 0``."""
    k = _floor_log2(q.numerator, q.denominator)  # 1 <= q / 2^k < 2  # label: ln-binade
    m = q / Fraction(2) ** k
    if m > Fraction(4, 3):
        k, m = k + 1, m / 2  # label: ln-halve
    return k, m


def _ln_enclosure(q: Fraction, precision: int) -> tuple[Fraction, Fraction]:
    """Exact rationals ``lo <= ln(q) <= hi``, for a rational ``q > 0``."""
    k, m = _ln_parts(q)
    m_lo, m_hi = _atanh_series((m - 1) / (m + 1), precision)  # ln m  # label: ln-m
    if k == 0:
        return m_lo, m_hi
    two_lo, two_hi = _ln2_enclosure(precision + k.bit_length())
    if k > 0:
        return k * two_lo + m_lo, k * two_hi + m_hi  # label: ln-sum-pos
    return k * two_hi + m_lo, k * two_lo + m_hi  # label: ln-sum-neg


# proof: end ln-enclosure


# proof: begin elementary
def inf_exp(x, T="f64") -> float:
    """The smallest ``T`` value ``>= exp(x)``, for a ``T`` value ``x``."""
    fmt: _Format = _format(T)
    q = _operand(x, "x", "inf_exp", fmt)
    # 0 < exp(x) < e^-800 < 2^-1154, below the smallest subnormal of either format
    if q < -800:  # label: exp-tiny
        return _round(Fraction(1, 1 << 1154), fmt, "up")
    # exp(x) > e^710 > 2^1024, beyond the finite range of either format
    if q > 710:  # label: exp-huge
        raise ArithmeticOverflowError(
            f"exp({shown(x)}) exceeds the range of {fmt.name}", parameter="x"
        )
    return round_enclosure(lambda precision: _exp_enclosure(q, precision), T, "up")  # label: exp


def inf_ln_1p(x, T="f64") -> float:
    """The smallest ``T`` value ``>= ln(1 + x)``, for a ``T`` value ``x > -1``."""
    fmt = _format(T)
    q = _operand(x, "x", "inf_ln_1p", fmt)
    if q <= -1:  # label: ln-domain
        raise ArithmeticOverflowError(
            f"inf_ln_1p of {shown(x)} is not finite (needs x > -1)", parameter="x"
        )
    return round_enclosure(lambda precision: _ln_enclosure(1 + q, precision), T, "up")  # label: ln


def _log2_enclosure(q: Fraction, precision: int) -> tuple[Fraction, Fraction]:
    """Exact rationals enclosing ``log2(q) = k + ln(m) / ln 2``, for a rational ``q > 0``."""
    k, m = _ln_parts(q)
    m_lo, m_hi = _atanh_series((m - 1) / (m + 1), precision)
    two_lo, two_hi = _ln2_enclosure(precision)
    # divide by ln 2 in [two_lo, two_hi], 0 < two_lo: the quotient's ends by sign
    lo = m_lo / (two_hi if m_lo >= 0 else two_lo)  # label: log2-lo
    hi = m_hi / (two_lo if m_hi >= 0 else two_hi)  # label: log2-hi
    return k + lo, k + hi


def _log2(a, T, op: str, direction: str) -> float:
    fmt = _format(T)
    q = _operand(a, "x", op, fmt)
    if q <= 0:
        raise ArithmeticOverflowError(
            f"{op} of {shown(a)} is not finite (needs x > 0)", parameter="x"
        )
    n, d = q.numerator, q.denominator
    if n & (n - 1) == 0 and d & (d - 1) == 0:
        return float(n.bit_length() - d.bit_length())  # label: log2-power-of-two
    return round_enclosure(lambda precision: _log2_enclosure(q, precision), T, direction)


def inf_log2(a, T="f64") -> float:
    """The smallest ``T`` value ``>= log2(a)``; exact when ``a`` is a power of two."""
    return _log2(a, T, "inf_log2", "up")


def neg_inf_log2(a, T="f64") -> float:
    """The largest ``T`` value ``<= log2(a)``; exact when ``a`` is a power of two."""
    return _log2(a, T, "neg_inf_log2", "down")


# proof: end elementary
