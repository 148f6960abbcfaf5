"""The directed binary64 operations of ``floats``, fast: the host's float result is taken
as a candidate and returned only when exact integer comparisons prove it is the answer.

Guarantee (quick.tex): for any operands, ``quick_inf_add(a, b)`` returns the same float
(same bits) and raises the same errors as ``inf_add(a, b)`` (``T = "f64"``), and likewise
for the other seven operations.  Nothing is assumed of the host's +, -, *, / or
math.nextafter (a wrong candidate only sends the call to the exact operation); assumed are IEEE
float comparisons, ``abs`` and ``math.isfinite`` (exact in every rounding mode), and
``float.as_integer_ratio`` being exact, which holds in the IEEE default environment only (not
under denormals-are-zero): the callers run in it, checked by ``core.fpenv`` (``map``,
``invoke``, ``PrivacyProfile.delta``).
"""

from __future__ import annotations

import math

from .floats import (
    inf_add,
    inf_div,
    inf_mul,
    inf_sub,
    neg_inf_add,
    neg_inf_div,
    neg_inf_mul,
    neg_inf_sub,
)

__all__ = [
    "quick_inf_add",
    "quick_inf_div",
    "quick_inf_mul",
    "quick_inf_sub",
    "quick_neg_inf_add",
    "quick_neg_inf_div",
    "quick_neg_inf_mul",
    "quick_neg_inf_sub",
]


# proof: begin quick
#: The largest finite binary64 value.
_OMEGA = 1.7976931348623157e308  # label: omega


def _exact(symbol: str, x: float, y: float) -> tuple[int, int] | None:
    """``(N, D)`` with ``D > 0`` and ``N / D`` the exact ``x symbol y``, for finite floats;
    ``None`` for a division by zero."""
    nx, dx = x.as_integer_ratio()  # label: ratio-x
    ny, dy = y.as_integer_ratio()  # label: ratio-y
    if symbol == "+":
        return nx * dy + ny * dx, dx * dy  # label: exact-add
    if symbol == "-":
        return nx * dy - ny * dx, dx * dy  # label: exact-sub
    if symbol == "*":
        return nx * ny, dx * dy  # label: exact-mul
    if ny == 0:
        return None  # label: exact-zero
    if ny < 0:
        return -nx * dy, dx * -ny  # label: exact-div-neg
    return nx * dy, dx * ny  # label: exact-div


def _gap(nc: int, dc: int) -> int:
    """``k`` such that ``2**k`` is at most the gap from the float ``nc/dc`` (in lowest terms,
    ``0 < |nc/dc| < OMEGA``) to either float next to it, and ``nc/dc`` a multiple of it: the
    spacing of its binade, halved below a normal power of two (where the binade changes)."""
    magnitude = abs(nc)
    # 2**e <= |candidate| < 2**(e + 1)
    e = magnitude.bit_length() - dc.bit_length()  # label: binade
    k = max(e, -1022) - 52  # label: gap
    if e > -1022 and magnitude & (magnitude - 1) == 0:  # |candidate| = 2**e  # label: gap-power
        k -= 1
    return k


def _checked(candidate: float, lo: int, hi: int, d: int, up: bool) -> bool:
    """Is the float ``candidate`` the smallest float ``>= v`` (``up``) or the largest ``<= v``
    for every ``v`` in ``[lo/d, hi/d]``, an interval within the finite range?  ``True`` only
    when proved by exact comparisons; ``False`` may also be returned for a candidate that is
    the answer."""
    if type(candidate) is not float:  # e.g. a subclass or a Fraction from the host
        return False  # label: zone-float
    if candidate == 0 or not abs(candidate) < _OMEGA:  # also NaN and infinities  # label: zone
        return False
    nc, dc = candidate.as_integer_ratio()  # label: ratio-c
    k = _gap(nc, dc)  # h = 2**k  # label: gap-call
    # scaled to the denominator s = dc * 2**max(-k, 0): candidate = c / s, h = g / s
    if k >= 0:
        c, g, s = nc, dc << k, dc  # label: scale-coarse
    else:
        c, g, s = nc << -k, dc, dc << -k  # label: scale-fine
    # an end times s * d, compared with (c +- g) * d
    if up:
        return hi * s <= c * d and lo * s > (c - g) * d  # label: check-up
    return lo * s >= c * d and hi * s < (c + g) * d  # label: check-down


def _quick(symbol: str, up: bool, exact):
    def operation(a, b):
        if type(a) is float and type(b) is float and math.isfinite(a) and math.isfinite(b):
            ratio = _exact(symbol, a, b)  # label: quick-exact
            if ratio is not None:
                if symbol == "+":
                    candidate = a + b
                elif symbol == "-":
                    candidate = a - b
                elif symbol == "*":
                    candidate = a * b
                else:
                    candidate = a / b  # b != 0 here
                n, d = ratio
                is_float = type(candidate) is float  # exactly a float  # label: quick-float
                if is_float and candidate != 0 and abs(candidate) < _OMEGA:  # label: quick-zone
                    nc, dc = candidate.as_integer_ratio()  # label: quick-ratio
                    # (candidate - exact) * dc * d, exactly
                    ahead = nc * d - n * dc if up else n * dc - nc * d  # label: quick-ahead
                    if ahead == 0:  # the exact value is the candidate: both roundings
                        return candidate  # label: quick-exact-return
                    if ahead > 0:  # on the asked side: the answer if it is within 2**k
                        k = _gap(nc, dc)  # label: quick-gap
                        near = (ahead < (dc * d) << k) if k >= 0 else (ahead << -k < dc * d)
                        if near:  # |candidate - exact| < 2**k  # label: quick-near-test
                            return candidate  # label: quick-near
                    else:  # the host rounds to nearest: the answer is the next float over
                        candidate = math.nextafter(candidate, math.inf if up else -math.inf)
                if _checked(candidate, n, n, d, up):  # label: quick-checked
                    return candidate  # label: quick-return
        return exact(a, b)  # label: quick-fallback

    operation.__name__ = operation.__qualname__ = f"quick_{exact.__name__}"
    operation.__doc__ = f"``{exact.__name__}(a, b)`` in binary64, from a checked candidate."
    return operation


quick_inf_add = _quick("+", True, inf_add)
quick_inf_sub = _quick("-", True, inf_sub)
quick_inf_mul = _quick("*", True, inf_mul)
quick_inf_div = _quick("/", True, inf_div)
quick_neg_inf_add = _quick("+", False, neg_inf_add)
quick_neg_inf_sub = _quick("-", False, neg_inf_sub)
quick_neg_inf_mul = _quick("*", False, neg_inf_mul)
quick_neg_inf_div = _quick("/", False, neg_inf_div)
# proof: end quick
