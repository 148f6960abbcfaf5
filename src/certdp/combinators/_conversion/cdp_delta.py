"""The delta of a rho-zCDP guarantee at a given epsilon, rounded up.

Guarantee (cdp_delta.tex): for numbers (float, int or Fraction) ``rho >= 0`` and
``epsilon >= 0``, ``cdp_delta(rho, epsilon)`` returns a float ``delta`` in ``[0, 1]`` such that
every pair of distributions that are rho-close under the zero-concentrated divergence is
(epsilon, delta)-close; it raises :class:`FailedMapError` for an argument that is not a number,
is NaN or negative (``-0.0`` included).
``delta`` is the bound of Canonne, Kamath and Steinke (2020, Corollary 13)

    exp((a - 1) (a rho - epsilon) + a ln(1 - 1/a)) / (a - 1)

at an order ``a > 1`` found by bisection (any order gives a valid bound), with every
operation rounded so that the result can only grow (OpenDP 0.16's algorithm, same bits).
As in OpenDP, ``delta`` is not exactly monotone in ``epsilon``: it can rise in its last bits
between neighbouring epsilons (at most 3 ulps in the scans made; observed, not proven), and
each value is valid at its own epsilon.
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.core.conversion import exact_scalar
from certdp.core.errors import ArithmeticOverflowError, FailedMapError, shown
from certdp.core.exact_type import type_is
from certdp.numeric import inf_cast, inf_exp, inf_ln_1p, neg_inf_cast
from certdp.numeric.quick import (
    quick_inf_add,
    quick_inf_div,
    quick_inf_mul,
    quick_inf_sub,
    quick_neg_inf_div,
    quick_neg_inf_mul,
    quick_neg_inf_sub,
)
from certdp.numeric.quick_elementary import quick_inf_exp, quick_inf_ln_1p

__all__ = ["cdp_delta", "delta_at_order", "inf_exp", "inf_ln_1p"]


# proof: begin cdp-delta
#: Largest finite f64.
F64_MAX = 1.7976931348623157e308  # label: f64-max
#: The most entries a memo holds: a call that would store one more first empties it.
MEMO_CAP = 512  # label: memo-cap


def _f64(value, name: str, up: bool) -> float:
    """``value`` as an f64: rounded up (``up``, +inf beyond the range) or down (the largest
    finite f64 beyond it); refuses what is not a number, NaN and values with the sign set.
    ``value`` passes the boundary first (a NumPy float becomes its float, a float subclass is
    refused), as ``epsilon`` does in ``PrivacyProfile.delta``."""
    value = exact_scalar(value, name, FailedMapError)  # label: boundary
    if not type_is(value, int, float, Fraction):  # label: type
        raise FailedMapError(f"must be a number, got {shown(value)}", parameter=name)
    if type(value) is float:
        if math.isnan(value) or math.copysign(1.0, value) < 0:  # label: float-check
            raise FailedMapError(f"must be non-negative, got {shown(value)}", parameter=name)
        return value  # label: float-kept
    if value < 0:  # label: rational-check
        raise FailedMapError(f"must be non-negative, got {shown(value)}", parameter=name)
    try:
        return inf_cast(value, "f64") if up else neg_inf_cast(value, "f64")  # label: rational-cast
    except ArithmeticOverflowError:
        return math.inf if up else F64_MAX  # label: rational-overflow


def cdp_delta(rho, epsilon, memo: dict | None = None) -> float:
    """A delta, rounded up, such that rho-zCDP implies (epsilon, delta)-DP. ``memo``: a dict
    that calls may share (it only saves work: the values are those computed without it; it
    never holds more than ``MEMO_CAP`` entries when used by one thread at a time)."""
    rho = _f64(rho, "rho", up=True)  # label: rho-check
    epsilon = _f64(epsilon, "epsilon", up=False)  # label: epsilon-check
    if rho == 0 or math.isinf(epsilon):  # label: trivial-zero
        return 0.0
    if math.isinf(rho):  # label: trivial-one
        return 1.0
    # the best order is at most (epsilon + 1) / (2 rho) + 2 (rounding here only moves the search)
    try:
        quotient = quick_inf_div(quick_inf_add(epsilon, 1.0), quick_neg_inf_mul(2.0, rho))
        a_max = quick_inf_add(quotient, 2.0)  # label: a-max
    except ArithmeticOverflowError:
        a_max = F64_MAX
    a_min = 1.01  # label: a-min
    log1p, copysign = math.log1p, math.copysign  # local names: the loop runs ~60 times
    while True:  # bisection on the sign of the derivative in a (any a > 1 is valid)
        a_mid = a_min + (a_max - a_min) / 2.0
        if a_mid == a_max or a_mid == a_min:
            break
        derivative = (2.0 * a_mid - 1.0) * rho - epsilon + log1p(-1.0 / a_mid)
        # the sign bit, as OpenDP reads it: -0.0 counts as negative (never NaN here)
        if derivative < 0.0 or (derivative == 0.0 and copysign(1.0, derivative) < 0):
            a_min = a_mid
        else:
            a_max = a_mid
    a = a_max  # label: order
    return delta_at_order(a, rho, epsilon, memo)  # label: at-order


def delta_at_order(a: float, rho: float, epsilon: float, memo: dict | None = None) -> float:
    """The bound at the order ``a``, every operation rounded so that it can only grow, clipped
    to 1: for floats ``a > 1``, ``0 < rho < inf`` and ``0 <= epsilon < inf``."""
    try:
        ar_e = quick_inf_sub(quick_inf_mul(a, rho), epsilon)  # >= a rho - epsilon  # label: ar-e
    except ArithmeticOverflowError:
        return 1.0  # a rho beyond the f64 range  # label: ar-e-overflow
    if memo is None:
        return _from_ar_e(a, ar_e)  # label: tail
    key = ("tail", a, ar_e)  # the rest depends on a and ar_e alone  # label: tail-key
    value = memo.get(key)  # label: tail-look-up
    if value is None:
        value = _from_ar_e(a, ar_e)  # label: tail-compute
        if len(memo) >= MEMO_CAP:
            memo.clear()  # bounded: an emptied entry is only computed again  # label: memo-clear
        memo[key] = value  # label: tail-memo
    return value  # label: tail-remembered


def _from_ar_e(a: float, ar_e: float) -> float:
    """The rest of ``delta_at_order``, from ``ar_e >= a rho - epsilon`` (a float, never -0.0)."""
    # (a - 1) is rounded in the direction that enlarges its product with ar_e
    a_1 = quick_neg_inf_sub(a, 1.0) if ar_e < 0 else quick_inf_sub(a, 1.0)  # label: a-1
    try:
        t1 = quick_inf_mul(a_1, ar_e)  # >= (a - 1)(a rho - epsilon)  # label: t1
    except ArithmeticOverflowError:
        if ar_e < 0:
            t1 = -F64_MAX  # a larger exponent: delta only grows  # label: t1-floor
        else:
            return 1.0  # label: t1-overflow
    # t2 >= a ln(1 - 1/a)
    t2 = quick_inf_mul(a, quick_inf_ln_1p(-quick_neg_inf_div(1.0, a)))  # label: t2
    try:
        exponent = quick_inf_add(t1, t2)  # >= the exact exponent  # label: exponent
    except ArithmeticOverflowError:  # t1 <= F64_MAX and t2 <= 0: only below the range
        exponent = -F64_MAX  # a larger exponent: delta only grows  # label: exponent-floor
    try:
        delta = quick_inf_div(quick_inf_exp(exponent), quick_neg_inf_sub(a, 1.0))  # label: delta
    except ArithmeticOverflowError:
        return 1.0  # label: delta-overflow
    return min(delta, 1.0)  # label: at-most-one


# proof: end cdp-delta
