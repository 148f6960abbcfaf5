"""``inf_exp`` and ``inf_ln_1p`` in binary64, fast: the host's ``math.exp`` / ``math.log1p``
value is taken as a candidate and returned only when exact integer comparisons prove it is the
upward rounding of every point of a short proven enclosure of the exact value.

Guarantee (quick_elementary.tex): for any operand, ``quick_inf_exp(x)`` returns the same float
(same bits) and raises the same errors as ``inf_exp(x)`` (``T = "f64"``), and
``quick_inf_ln_1p(x)`` likewise as ``inf_ln_1p(x)``. Nothing is assumed of ``math.exp``,
``math.log1p`` or ``math.nextafter`` (a wrong candidate only sends the call to the exact
function); the host assumptions are those of ``quick`` (IEEE comparisons, exact
``float.as_integer_ratio``, exact integers).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from .elementary import _ln2_enclosure, _ln_enclosure, inf_exp, inf_ln_1p
from .quick import _checked

__all__ = ["quick_inf_exp", "quick_inf_ln_1p"]


# proof: begin quick-elementary
#: Fraction bits of the fixed-point enclosures: an integer N stands for N / 2^W.
W = 110  # label: work-bits
ONE = 1 << W


def _fixed(q: Fraction, shift: int) -> tuple[int, int]:
    """Integers ``lo <= q 2^shift <= hi`` (floor and ceiling), for a rational ``q``."""
    scaled = q.numerator << shift
    return scaled // q.denominator, -(-scaled // q.denominator)  # label: fixed


#: ln 2 / 64 and ln 2, enclosed in units of 2^-W (from the proven series of elementary.tex).
_LN2 = _ln2_enclosure(W + 16)  # label: ln2-series
LN2_64_LO, LN2_64_HI = _fixed(_LN2[0], W - 6)[0], _fixed(_LN2[1], W - 6)[1]  # label: ln2-64
LN2_LO, LN2_HI = _fixed(_LN2[0], W)[0], _fixed(_LN2[1], W)[1]  # label: ln2
#: About 2^64 * 64 / ln 2: picks the reduction (any integer there would be sound).
INV_LN2_64 = (64 << (64 + W)) // LN2_HI  # label: inv-ln2

#: Series lengths and integer bounds (units of 2^-W) on the rests after them.
EXP_TERMS = 10  # label: exp-terms
EXP_REST = (2 << W) // (64**EXP_TERMS * math.factorial(EXP_TERMS)) + 1  # label: exp-rest
LN_TERMS = 6  # label: ln-terms
LN_REST = (1 << (W - 4 - 14 * LN_TERMS)) // (2 * LN_TERMS + 1) + 1  # label: ln-rest
#: 1 / (2i + 1) in units of 2^-W, rounded down and up.
ODD_LO = [ONE // (2 * i + 1) for i in range(LN_TERMS)]  # label: odd-lo
ODD_HI = [-(-ONE // (2 * i + 1)) for i in range(LN_TERMS)]  # label: odd-hi


@lru_cache(maxsize=64)
def _root_two(j: int) -> tuple[int, int]:
    """Integers ``lo <= 2^(j/64) 2^W <= hi``, for ``0 <= j < 64``: six square roots of
    ``2^(j + 64 W)``, rounded down and up."""
    lo = hi = 1 << (j + 64 * W)
    for _ in range(6):
        lo, hi = math.isqrt(lo), math.isqrt(hi - 1) + 1  # label: root-step
    return lo, hi


@lru_cache(maxsize=64)
def _ln_table(j: int) -> tuple[int, int]:
    """Integers ``lo <= ln(1 + j/64) 2^W <= hi``, for ``0 <= j < 64``."""
    lo, hi = _ln_enclosure(Fraction(64 + j, 64), W + 8)
    return _fixed(lo, W)[0], _fixed(hi, W)[1]  # label: ln-table


def _exp_bounds(n: int, d: int, k64: int) -> tuple[int, int, int] | None:
    """``(lo, hi, e)`` with ``lo 2^e <= exp(n/d) <= hi 2^e``, for integers ``n``, ``d > 0`` and
    ``k64``, through ``exp(x) = 2^(k64/64) exp(r)``; ``None`` unless ``0 <= r <= 1/64``."""
    x_lo, x_hi = (n << W) // d, -((-n << W) // d)  # x 2^W, floor and ceiling  # label: exp-x
    if k64 >= 0:  # r = x - k64 ln2/64, in units of 2^-W
        r_lo, r_hi = x_lo - k64 * LN2_64_HI, x_hi - k64 * LN2_64_LO  # label: exp-r-pos
    else:
        r_lo, r_hi = x_lo - k64 * LN2_64_LO, x_hi - k64 * LN2_64_HI  # label: exp-r-neg
    if r_lo < 0 or r_hi > ONE >> 6:  # 0 <= r <= 1/64 is what the rest bound needs
        return None  # label: exp-fit
    e_lo = e_hi = ONE
    for i in range(EXP_TERMS - 1, 0, -1):  # Horner: 1 + r/i (1 + r/(i+1) (...))
        e_lo = ONE + ((e_lo * r_lo) >> W) // i  # label: exp-horner-lo
        e_hi = ONE - (((-e_hi * r_hi) >> W) // i)  # label: exp-horner-hi
    t_lo, t_hi = _root_two(k64 & 63)  # 2^(j/64), j = k64 mod 64
    # exp(x) = 2^(k64 >> 6) 2^(j/64) exp(r), in units of 2^(-2W)
    return t_lo * e_lo, t_hi * (e_hi + EXP_REST), (k64 >> 6) - 2 * W  # label: exp-bounds


def _ln_bounds(n: int, d: int) -> tuple[int, int]:
    """``(lo, hi)`` with ``lo 2^-W <= ln(1 + n/d) <= hi 2^-W``, for integers ``n``, ``d > 0``
    with ``d`` a power of two and ``n/d > -1``."""
    num = n + d  # 1 + x = num / d, num > 0  # label: ln-q
    b = num.bit_length() - 1  # m = num / 2^b in [1, 2)
    k = b - (d.bit_length() - 1)  # 1 + x = m 2^k  # label: ln-k
    j = ((num << 6) >> b) - 64  # floor(64 (m - 1)), in 0..63  # label: ln-j
    # z = (m - c) / (m + c) with c = 1 + j/64: 0 <= z < 1/128, ln(m / c) = 2 atanh(z)
    top, bottom = (num << 6) - ((64 + j) << b), (num << 6) + ((64 + j) << b)  # label: ln-z
    z_lo, z_hi = (top << W) // bottom, -((-top << W) // bottom)
    y_lo, y_hi = (z_lo * z_lo) >> W, -((-z_hi * z_hi) >> W)  # z^2  # label: ln-y
    p_lo, p_hi = ODD_LO[LN_TERMS - 1], ODD_HI[LN_TERMS - 1]
    for i in range(LN_TERMS - 2, -1, -1):  # Horner: 1/(2i+1) + z^2 (...)
        p_lo = ODD_LO[i] + ((p_lo * y_lo) >> W)  # label: ln-horner-lo
        p_hi = ODD_HI[i] - ((-p_hi * y_hi) >> W)  # label: ln-horner-hi
    a_lo, a_hi = (2 * z_lo * p_lo) >> W, -((-2 * z_hi * p_hi) >> W) + LN_REST  # label: ln-atanh
    c_lo, c_hi = _ln_table(j)
    if k >= 0:  # ln(1 + x) = k ln 2 + ln c + 2 atanh(z)
        return k * LN2_LO + c_lo + a_lo, k * LN2_HI + c_hi + a_hi  # label: ln-sum-pos
    return k * LN2_HI + c_lo + a_lo, k * LN2_LO + c_hi + a_hi  # label: ln-sum-neg


def _decided(candidate: object, lo: int, hi: int, d: int) -> float | None:
    """``candidate`` or the float above it, whichever exact comparisons show is the upward
    rounding of every value in ``[lo/d, hi/d]``; ``None`` when neither is shown to be (also
    when ``candidate`` is not exactly a ``float``)."""
    if type(candidate) is not float:  # a host value of any other type is never used
        return None  # label: candidate-float
    if not math.isfinite(candidate):
        return None  # label: candidate-finite
    nc, dc = candidate.as_integer_ratio()  # label: candidate-ratio
    if hi * dc > nc * d:  # the enclosure reaches above the candidate: try the float above
        candidate = math.nextafter(candidate, math.inf)  # label: next-candidate
    return candidate if _checked(candidate, lo, hi, d, True) else None  # label: decided


def quick_inf_exp(x) -> float:
    """``inf_exp(x)`` in binary64: the smallest f64 ``>= exp(x)``."""
    if type(x) is float and -800.0 <= x <= 709.0:  # label: exp-zone
        n, d = x.as_integer_ratio()  # label: exp-ratio
        # k64 near 64 x / ln 2 (any integer is sound: _exp_bounds checks the rest it leaves)
        bounds = _exp_bounds(n, d, (n * INV_LN2_64) // (d << 64))  # label: exp-k
        if bounds is not None:
            lo, hi, e = bounds
            lo, hi, d = (lo << e, hi << e, 1) if e >= 0 else (lo, hi, 1 << -e)  # label: exp-scale
            try:
                candidate = math.exp(x)  # label: exp-candidate
            except (OverflowError, ValueError):  # not for these operands; never trusted
                candidate = math.nan
            result = _decided(candidate, lo, hi, d)  # label: exp-check
            if result is not None:
                return result
    return inf_exp(x, "f64")  # label: exp-fallback


def quick_inf_ln_1p(x) -> float:
    """``inf_ln_1p(x)`` in binary64: the smallest f64 ``>= ln(1 + x)``."""
    if type(x) is float and -1.0 < x < math.inf:  # label: ln-zone
        n, d = x.as_integer_ratio()  # label: ln-ratio
        lo, hi = _ln_bounds(n, d)
        try:
            candidate = math.log1p(x)  # label: ln-candidate
        except (OverflowError, ValueError):  # not for these operands; never trusted
            candidate = math.nan
        result = _decided(candidate, lo, hi, ONE)  # label: ln-check
        if result is not None:
            return result
    return inf_ln_1p(x, "f64")  # label: ln-fallback


# proof: end quick-elementary
