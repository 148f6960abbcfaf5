"""Noise scale <-> accuracy at level alpha, for the four noise distributions, rounded safely.

Guarantee (accuracy.tex): with ``X`` the noise of the distribution at the scale in question,
``*_scale_to_accuracy(scale, alpha)`` returns an ``a`` with ``P(|X| >= a) <= alpha`` (at scale 0
the noise is 0 and ``P(|X| > a) = 0``), never below the exact value it stands for; and
``accuracy_to_*_scale(accuracy, alpha)`` returns a scale at which ``P(|X| >= accuracy) <=
alpha`` (rounded down, never up). Every decision is an exact comparison of an enclosure by
rationals that the lemma proves; no floating point and no library interval is trusted. Floats
computed here only suggest where to start looking (``_hint_*``); a value is returned only after
the exact check that it holds, and, for the searched ones, that its neighbour does not.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction
from functools import lru_cache
from math import isqrt

import numpy as np

from certdp.audit.gate import _up_to_date, require_vetted_or_contrib
from certdp.core.conversion import exact_scalar
from certdp.core.errors import ArithmeticOverflowError, DPError
from certdp.core.exact_type import type_is
from certdp.numeric.elementary import _exp_enclosure, _ln_enclosure, round_enclosure
from certdp.numeric.floats import (
    _MAX,
    _floor_log2,
    _format,
    _operand,
    _representable,
    _round,
    _to_fraction,
)

__all__ = [
    "AccuracyParameterError",
    "laplacian_scale_to_accuracy",
    "accuracy_to_laplacian_scale",
    "discrete_laplacian_scale_to_accuracy",
    "accuracy_to_discrete_laplacian_scale",
    "gaussian_scale_to_accuracy",
    "accuracy_to_gaussian_scale",
    "discrete_gaussian_scale_to_accuracy",
    "accuracy_to_discrete_gaussian_scale",
]


# proof: begin inputs
class AccuracyParameterError(DPError, ValueError):
    """A scale, accuracy or alpha outside the range the conversion is defined on."""

    variant = "InvalidDistance"


def _read(value, name: str, op: str, fmt, nonnegative: bool) -> Fraction:
    """The exact value of a finite number; with ``nonnegative``, ``-0.0`` and negative values
    are refused (as OpenDP refuses a negative sign) and the value must be a ``T`` value."""
    if type(value) is bool:  # label: no-bool
        raise AccuracyParameterError(f"must be a number, not {value!r}", parameter=name)
    exact = exact_scalar(value, name)  # label: exact
    if not type_is(exact, int, float, Fraction):  # label: number
        raise AccuracyParameterError(f"must be a number, not {value!r}", parameter=name)
    if type(exact) is float and not math.isfinite(exact):  # label: finite
        raise AccuracyParameterError(f"must be finite, got {exact!r}", parameter=name)
    negative = exact < 0 or (type(exact) is float and math.copysign(1.0, exact) < 0)
    if nonnegative and negative:  # label: sign
        raise AccuracyParameterError(f"may not be negative, got {exact!r}", parameter=name)
    if not nonnegative:
        return _to_fraction(exact, name, op)  # alpha: rounded by the caller  # label: alpha-exact
    return _operand(exact, name, op, fmt)  # label: in-T


_F64 = _format("f64")


def _carrier_of(value) -> str:
    """The format OpenDP infers from the scale or accuracy: ``f32`` for a NumPy ``float32``,
    ``f64`` otherwise (certdp also reads integers and rationals, which OpenDP refuses)."""
    return "f32" if type(value) is np.float32 else "f64"  # label: infer


def _inputs(value, name: str, alpha, T, op: str, alpha_one: bool):
    """``(format, value, alpha)`` for a non-negative ``value`` and ``alpha`` in (0, 1]
    (``alpha_one``) or in (0, 1); ``alpha`` is used exactly, in every ``T``, when it is an
    ``f64`` value, and is rounded down to one otherwise."""
    fmt = _format(_carrier_of(value) if T is None else T)  # label: format
    exact = _read(value, name, op, fmt, True)
    a = _read(alpha, "alpha", op, fmt, False)
    if not (0 < a < 1 or (alpha_one and a == 1)):  # label: alpha-range
        bounds = "(0, 1]" if alpha_one else "(0, 1)"
        raise AccuracyParameterError(f"must be in {bounds}, got {alpha!r}", parameter="alpha")
    if not _representable(a, _F64):  # never to f32: exact rationals need no rounding to T
        a = Fraction(_round(a, _F64, "down"))  # a smaller alpha is stronger  # label: alpha-down
        if a == 0:  # label: alpha-zero
            raise AccuracyParameterError(
                f"rounds down to 0 in f64, got {alpha!r}", parameter="alpha"
            )
    return fmt, exact, a


def _gate() -> None:
    if "accuracy" not in _up_to_date:
        require_vetted_or_contrib("accuracy")  # label: gate


# proof: end inputs


# proof: begin rounding
#: Enclosures are refined up to this working precision (bits); a comparison still undecided
#: there counts as not holding, which is always the safe side.
MAX_PRECISION = 1 << 13  # label: max-precision


def _up(enclose, fmt) -> float:
    """The smallest ``T`` value ``>= v >= 0``; ``inf`` when ``v`` exceeds the finite range."""
    try:
        return round_enclosure(enclose, fmt.name, "up")  # label: round-up
    except ArithmeticOverflowError:
        return math.inf  # label: up-overflow


def _down(enclose, fmt) -> float:
    """The largest ``T`` value ``<= v``, for ``v >= 0``; the largest finite one beyond it."""
    try:
        return round_enclosure(enclose, fmt.name, "down")  # label: round-down
    except ArithmeticOverflowError:
        return float(_MAX[fmt.name])  # label: down-overflow


def _at_most(enclose, bound: Fraction, first: int = 64) -> bool:
    """``True`` only when an enclosure ``lo <= v <= hi`` with ``hi <= bound`` was found
    (working precisions ``first``, ``2 first``, ... up to ``MAX_PRECISION``)."""
    precision = first
    while precision <= MAX_PRECISION:
        lo, hi = enclose(precision)  # label: decide-enclose
        if hi <= bound:  # label: decide-true
            return True
        if lo > bound:
            return False
        precision *= 2
    return False  # undecided: not shown to hold  # label: undecided


def _key(x: float, fmt) -> int:
    """The order-preserving integer of a non-negative ``T`` value (its bit pattern)."""
    if fmt.name == "f32":
        return struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _value(key: int, fmt) -> float:
    if fmt.name == "f32":
        return struct.unpack("<f", struct.pack("<I", key))[0]
    return struct.unpack("<d", struct.pack("<Q", key))[0]


def _first_passing(passes, start: int, top: int):
    """A key ``k`` in ``[0, top]`` with ``passes(k)`` evaluated ``True`` and either ``k == 0``
    or ``passes(k - 1)`` evaluated ``False``; ``None`` when ``passes(top)`` was ``False``.
    Galloping from ``start``, then bisection."""
    start = min(max(start, 0), top)
    if passes(start):  # label: start-passes
        high, step = start, 1
        while True:
            if high == 0:
                return 0
            candidate = max(high - step, 0)
            if not passes(candidate):
                low = candidate
                break
            high, step = candidate, 2 * step
    else:
        low, step = start, 1
        while True:
            if low == top:
                return None  # label: none-passes
            candidate = min(low + step, top)
            if passes(candidate):
                high = candidate
                break
            low, step = candidate, 2 * step
    while high - low > 1:  # invariant: passes(high) True, passes(low) False  # label: bisect
        middle = (low + high) // 2
        if passes(middle):
            high = middle
        else:
            low = middle
    return high  # label: first-passing


def _smallest_passing(passes, hint: float, fmt) -> float:
    """The smallest non-negative ``T`` value shown to pass whose predecessor was not; ``inf``
    when the largest finite one does not pass."""
    top = _key(float(_MAX[fmt.name]), fmt)
    start = _key(min(hint, float(_MAX[fmt.name])), fmt) if hint >= 0 else 0
    key = _first_passing(lambda k: passes(Fraction(_value(k, fmt))), start, top)
    return math.inf if key is None else _value(key, fmt)  # label: smallest


def _largest_passing(passes, hint: float, fmt) -> float:
    """The largest non-negative ``T`` value shown to pass whose successor was not (or the
    largest finite value); ``passes(0)`` must hold."""
    top = _key(float(_MAX[fmt.name]), fmt)
    start = _key(min(hint, float(_MAX[fmt.name])), fmt) if hint >= 0 else 0
    key = _first_passing(lambda k: not passes(Fraction(_value(k, fmt))), start, top)
    # the key before the first failing one passed (it was evaluated, or is 0, which passes)
    return _value(top if key is None else key - 1, fmt)  # label: largest


# proof: end rounding


# proof: begin laplace
def _ln_inverse(alpha: Fraction, precision: int):
    """Exact rationals enclosing ``ln(1 / alpha)``."""
    return _ln_enclosure(1 / alpha, precision)  # label: ln-inverse


def laplacian_scale_to_accuracy(scale, alpha, T=None) -> float:
    """The smallest ``T`` value ``>= scale ln(1/alpha)``: Laplace noise of this scale exceeds
    it in magnitude with probability at most ``alpha`` (``alpha`` in (0, 1])."""
    _gate()
    fmt, s, a = _inputs(scale, "scale", alpha, T, "laplacian_scale_to_accuracy", True)

    def enclose(precision):
        lo, hi = _ln_inverse(a, precision)
        return s * lo, s * hi  # label: lap-acc

    return _up(enclose, fmt)


def accuracy_to_laplacian_scale(accuracy, alpha, T=None) -> float:
    """The largest ``T`` value ``<= accuracy / ln(1/alpha)`` (``alpha`` in (0, 1))."""
    _gate()
    fmt, acc, a = _inputs(accuracy, "accuracy", alpha, T, "accuracy_to_laplacian_scale", False)

    def enclose(precision):
        lo, hi = _ln_inverse(a, precision)
        lo = max(lo, 1 - a)  # ln(1/alpha) >= 1 - alpha > 0  # label: ln-floor
        return acc / hi, acc / lo  # label: lap-scale

    return _down(enclose, fmt)


def _discrete_laplace_accuracy(s: Fraction, a: Fraction, precision: int):
    """Exact rationals enclosing ``s ln(1/alpha) + s ln(2 / (1 + exp(-1/s)))``, ``s > 0``."""
    if 1 / s >= precision + 8:  # exp(-1/s) <= 2^(-1/s) <= 2^-(precision+8)  # label: dl-tiny
        p_lo, p_hi = Fraction(0), Fraction(1, 1 << (precision + 8))
    else:
        p_lo, p_hi = _exp_enclosure(-1 / s, precision)  # label: dl-exp
    g_lo = _ln_enclosure(2 / (1 + p_hi), precision)[0]  # label: dl-g-lo
    g_hi = _ln_enclosure(2 / (1 + p_lo), precision)[1]  # label: dl-g-hi
    l_lo, l_hi = _ln_inverse(a, precision)
    return s * (l_lo + g_lo), s * (l_hi + g_hi)  # label: dl-acc


def discrete_laplacian_scale_to_accuracy(scale, alpha, T=None) -> float:
    """The smallest ``T`` value ``>= scale ln(2 / (alpha (1 + exp(-1/scale))))`` (0 at scale
    0): discrete Laplace noise reaches it in magnitude with probability at most ``alpha``."""
    _gate()
    op = "discrete_laplacian_scale_to_accuracy"
    fmt, s, a = _inputs(scale, "scale", alpha, T, op, True)
    if s == 0:
        return 0.0  # label: dl-zero
    return _up(lambda precision: _discrete_laplace_accuracy(s, a, precision), fmt)


def _guess(function, *arguments) -> float:
    """A float guess from ``function``, or ``0.0`` where its float arithmetic fails; the
    searches accept any start, so a guess only decides how long they take."""
    try:
        return float(function(*arguments))
    except (ArithmeticError, ValueError):
        return 0.0


def _hint_discrete_laplace(acc: float, alpha: float) -> float:
    """A float guess of the scale whose discrete Laplace accuracy is ``acc`` (unchecked)."""
    lower, upper = 0.0, acc / -math.log(alpha)
    for _ in range(64):
        middle = (lower + upper) / 2
        if middle == 0:
            break
        value = middle * (-math.log(alpha) + math.log(2 / (1 + math.exp(-1 / middle))))
        lower, upper = (middle, upper) if value <= acc else (lower, middle)
    return lower


def accuracy_to_discrete_laplacian_scale(accuracy, alpha, T=None) -> float:
    """The largest ``T`` value ``s`` shown to have discrete Laplace accuracy at most
    ``accuracy`` (``s ln(2 / (alpha (1 + exp(-1/s)))) <= accuracy``; ``alpha`` in (0, 1))."""
    _gate()
    op = "accuracy_to_discrete_laplacian_scale"
    fmt, acc, a = _inputs(accuracy, "accuracy", alpha, T, op, False)
    if acc == 0:
        return 0.0  # label: dl-scale-zero

    def passes(s: Fraction) -> bool:
        if s == 0:
            return True  # no noise  # label: dl-scale-0
        return _at_most(lambda p: _discrete_laplace_accuracy(s, a, p), acc)  # label: dl-passes

    hint = _guess(_hint_discrete_laplace, float(acc), float(a))
    return _largest_passing(passes, hint, fmt)


# proof: end laplace


# proof: begin gaussian
@lru_cache(maxsize=16)
def _pi_enclosure(bits: int) -> tuple[Fraction, Fraction]:
    """Exact rationals enclosing pi = 16 atan(1/5) - 4 atan(1/239) (Machin)."""

    def atan_inverse(x: int) -> tuple[int, int]:
        # sum of (-1)^k floor(2^bits / ((2k+1) x^(2k+1))) until a term is 0: each floor is
        # off by less than 1 and the alternating rest is below the first omitted term (< 1)
        total, power, index = 0, x, 0
        while True:
            term = (1 << bits) // ((2 * index + 1) * power)  # label: atan-term
            if term == 0:
                break
            total += term if index % 2 == 0 else -term
            power *= x * x
            index += 1
        return total - index - 1, total + index + 1  # label: atan-error

    a_lo, a_hi = atan_inverse(5)
    b_lo, b_hi = atan_inverse(239)
    scale = 1 << bits
    return Fraction(16 * a_lo - 4 * b_hi, scale), Fraction(16 * a_hi - 4 * b_lo, scale)


def _sqrt_two_over_pi(bits: int) -> tuple[Fraction, Fraction]:
    """Exact rationals enclosing sqrt(2/pi), from integer square roots rounded outward."""
    pi_lo, pi_hi = _pi_enclosure(bits)
    low = (2 * (1 << (2 * bits)) * pi_hi.denominator) // pi_hi.numerator  # <= 4^bits 2/pi_hi
    high = -(-(2 * (1 << (2 * bits)) * pi_lo.denominator) // pi_lo.numerator)
    return Fraction(isqrt(low), 1 << bits), Fraction(isqrt(high) + 1, 1 << bits)  # label: c


#: For t >= TAIL_CUT, P(|Z| >= t) <= 2 exp(-t^2/2) <= 2 exp(-800) < 2^-1153, below every alpha.
TAIL_CUT = 40  # label: tail-cut


def _gaussian_tail(t: Fraction, precision: int) -> tuple[Fraction, Fraction]:
    """Exact rationals enclosing ``P(|Z| >= t) = 1 - sqrt(2/pi) exp(-t^2/2) S(t)`` for a
    standard normal ``Z`` and rational ``0 <= t < TAIL_CUT``, with
    ``S(t) = sum over n >= 0 of t^(2n+1) / (1 3 5 ... (2n+1))``."""
    if t == 0:
        return Fraction(1), Fraction(1)  # label: tail-zero
    work = precision + 24
    num, den = t.numerator, t.denominator
    n2, d2 = num * num, den * den
    t_lo, t_hi = (num << work) // den, -(-(num << work) // den)  # term n = 0, times 2^work
    s_lo = s_hi = 0
    index = 0
    while True:
        s_lo, s_hi = s_lo + t_lo, s_hi + t_hi  # label: s-sum
        index += 1
        divisor = d2 * (2 * index + 1)
        t_lo, t_hi = t_lo * n2 // divisor, -(-t_hi * n2 // divisor)  # label: s-term
        # from here on each term is at most half the previous one: the rest is <= 2 t_hi
        if 2 * n2 <= d2 * (2 * index + 3) and t_hi <= 1:  # label: s-stop
            break
    s_hi += 2 * t_hi  # label: s-rest
    c_lo, c_hi = _sqrt_two_over_pi(work)
    e_lo, e_hi = _exp_enclosure(-t * t / 2, work)  # label: tail-exp
    low_mass = c_lo * e_lo * Fraction(s_lo, 1 << work)
    high_mass = c_hi * e_hi * Fraction(s_hi, 1 << work)
    return max(Fraction(0), 1 - high_mass), min(Fraction(1), 1 - low_mass)  # label: tail


def _gaussian_passes(t: Fraction, alpha: Fraction) -> bool:
    """``True`` only when ``P(|Z| >= t) <= alpha`` is shown."""
    if t >= TAIL_CUT:
        return True  # label: tail-cut-use
    first = 64 + max(0, -_floor_log2(alpha.numerator, alpha.denominator))  # alpha's binade
    return _at_most(lambda precision: _gaussian_tail(t, precision), alpha, first)


def _hint_gaussian(alpha: float) -> float:
    """A float guess of ``t`` with ``P(|Z| >= t) = alpha`` (unchecked): bisection on
    ``math.erfc``, or, where it underflows, on the logarithm of its asymptotic series."""

    def log_tail(t: float) -> float:
        if alpha > 1e-250:
            return math.log(max(math.erfc(t / math.sqrt(2)), 1e-320))
        u = 1 / (t * t)
        series = 1 - u + 3 * u * u - 15 * u**3 + 105 * u**4
        return -t * t / 2 - math.log(t) + 0.5 * math.log(2 / math.pi) + math.log(series)

    lower, upper = 0.0 if alpha > 1e-250 else 30.0, float(TAIL_CUT)
    target = math.log(alpha)
    for _ in range(64):
        middle = (lower + upper) / 2
        lower, upper = (lower, middle) if log_tail(middle) <= target else (middle, upper)
    return upper


def gaussian_scale_to_accuracy(scale, alpha, T=None) -> float:
    """The smallest ``T`` value ``acc`` shown to have ``P(|N(0, scale^2)| >= acc) <= alpha``
    (``alpha`` in (0, 1]; 0 at scale 0 or alpha 1)."""
    _gate()
    fmt, s, a = _inputs(scale, "scale", alpha, T, "gaussian_scale_to_accuracy", True)
    if s == 0 or a == 1:
        return 0.0  # label: g-zero
    hint = _guess(lambda: float(s) * _hint_gaussian(float(a)))
    return _smallest_passing(lambda acc: _gaussian_passes(acc / s, a), hint, fmt)  # label: g-acc


def accuracy_to_gaussian_scale(accuracy, alpha, T=None) -> float:
    """The largest ``T`` value ``s`` shown to have ``P(|N(0, s^2)| >= accuracy) <= alpha``
    (``alpha`` in (0, 1); 0 at accuracy 0)."""
    _gate()
    fmt, acc, a = _inputs(accuracy, "accuracy", alpha, T, "accuracy_to_gaussian_scale", False)
    if acc == 0:
        return 0.0  # label: g-scale-zero

    def passes(s: Fraction) -> bool:
        return s == 0 or _gaussian_passes(acc / s, a)  # label: g-passes

    hint = _guess(lambda: float(acc) / max(_hint_gaussian(float(a)), 1e-300))
    return _largest_passing(passes, hint, fmt)


# proof: end gaussian


# proof: begin discrete-gaussian
#: Scales up to this use the exact sums; above it, the bound by the continuous Gaussian.
EXACT_SCALE_LIMIT = 64  # label: exact-limit


@lru_cache(maxsize=8)
def _dg_sums(sigma: Fraction, alpha: Fraction, precision: int):
    """``(z_lo, z_hi, tail_lo, tail_hi, K)`` for ``0 < sigma <= EXACT_SCALE_LIMIT``: exact integers (times 2^-work)
    enclosing ``Z = sum over all integers x of u_x``, ``u_x = exp(-x^2 / (2 sigma^2))``, and,
    for ``k = 1..K+1``, ``tail[k]`` enclosing ``2 sum over x >= k of u_x``, with
    ``K = ceil(TAIL_CUT sigma) + 2``."""
    top = math.ceil(TAIL_CUT * sigma) + 2
    work = (
        precision
        + 2 * top.bit_length()
        + 16
        + max(0, -_floor_log2(alpha.numerator, alpha.denominator))
    )
    one = 1 << work
    exponent = 1 / (2 * sigma * sigma)  # q = exp(-exponent)
    if exponent >= work + 8:  # q <= 2^-(work+8): below one unit  # label: q-tiny
        q_lo, q_hi = 0, 1
    else:
        q_lo, q_hi = _exp_enclosure(-exponent, work + 8)
        q_lo = q_lo.numerator * one // q_lo.denominator  # label: q-fixed
        q_hi = -(-q_hi.numerator * one // q_hi.denominator)
    q2_lo, q2_hi = q_lo * q_lo >> work, -(-(q_hi * q_hi) >> work)
    u_lo, u_hi = [one], [one]
    r_lo, r_hi = q_lo, q_hi  # r_x = q^(2x-1), u_x = u_(x-1) r_x
    for _ in range(top + 1):  # u_1 .. u_(K+1)  # label: dg-terms
        u_lo.append(u_lo[-1] * r_lo >> work)
        u_hi.append(-(-(u_hi[-1] * r_hi) >> work))
        r_lo, r_hi = r_lo * q2_lo >> work, -(-(r_hi * q2_hi) >> work)
    # beyond K: the sum over x > K of u_x is at most u_(K+1) / (1 - q^(2(K+1))), as
    # (K+1+j)^2 >= (K+1)^2 + 2(K+1)j; and q^(2(K+1)) = exp(-(K+1)/sigma^2) <= exp(-40/sigma)
    # <= sigma / (sigma + 40) (exp(y) >= 1 + y), so 1 / (1 - q^(2(K+1))) <= (sigma + 40) / 40
    rest_hi = Fraction(u_hi[top + 1], one) * (sigma + TAIL_CUT) / TAIL_CUT  # label: dg-rest
    rest = -(-(rest_hi.numerator * one) // rest_hi.denominator)
    tail_lo, tail_hi = [0] * (top + 2), [0] * (top + 2)
    run_lo, run_hi = 0, rest
    for x in range(top, 0, -1):  # label: dg-suffix
        run_lo, run_hi = run_lo + u_lo[x], run_hi + u_hi[x]
        tail_lo[x], tail_hi[x] = 2 * run_lo, 2 * run_hi
    tail_lo[top + 1], tail_hi[top + 1] = 0, 2 * rest
    return one + tail_lo[1], one + tail_hi[1], tail_lo, tail_hi, top  # label: dg-z


def _dg_decide(sums, k: int, alpha: Fraction):
    """``True`` when ``P(|X| >= k) <= alpha`` is shown, ``False`` when ``> alpha`` is,
    ``None`` when undecided (``1 <= k <= K + 1``)."""
    z_lo, z_hi, tail_lo, tail_hi, _ = sums
    n, d = alpha.numerator, alpha.denominator
    if d * tail_hi[k] <= n * z_lo:  # tail_hi / z_lo <= alpha  # label: dg-true
        return True
    if d * tail_lo[k] > n * z_hi:  # tail_lo / z_hi > alpha
        return False
    return None


def _dg_passes(sigma: Fraction, k: int, alpha: Fraction) -> bool:
    """``True`` only when ``P(|X| >= k) <= alpha`` is shown, for the discrete Gaussian of
    scale ``sigma`` and an integer ``k >= 1``."""
    if sigma == 0:
        return True  # X = 0  # label: dg-sigma-0
    if k == 1 and sigma > EXACT_SCALE_LIMIT:
        # P(|X| >= 1) = 1 - 1/Z with Z <= 1 + sigma sqrt(2 pi) = 1 + 2 sigma / sqrt(2/pi)
        c_lo = _sqrt_two_over_pi(64)[0]
        return 2 * sigma / (c_lo + 2 * sigma) <= alpha  # label: dg-k1
    if k - 1 >= TAIL_CUT * sigma or sigma > EXACT_SCALE_LIMIT:  # label: dg-bound
        # P(|X| >= k) <= P(|Z| >= (k - 1) / sigma) (the lemma's comparison)
        return _gaussian_passes((k - 1) / sigma, alpha)
    precision = 64
    while precision <= MAX_PRECISION:
        decided = _dg_decide(_dg_sums(sigma, alpha, precision), k, alpha)
        if decided is not None:
            return decided  # label: dg-decided
        precision *= 2
    return False


def discrete_gaussian_scale_to_accuracy(scale, alpha, T=None) -> float:
    """The smallest integer ``k >= 1`` shown to have ``P(|X| >= k) <= alpha`` for the
    discrete Gaussian of this scale, as a ``T`` value rounded up (``alpha`` in (0, 1])."""
    _gate()
    op = "discrete_gaussian_scale_to_accuracy"
    fmt, s, a = _inputs(scale, "scale", alpha, T, op, True)
    if s == 0 or a == 1:
        return 1.0  # label: dg-one
    if s > EXACT_SCALE_LIMIT:
        # k = ceil(acc) + 1 with P(|Z| >= acc / s) <= alpha shown: (k - 1) / s >= acc / s
        acc = gaussian_scale_to_accuracy(scale, alpha, T)
        if math.isinf(acc):
            return math.inf
        k = math.ceil(Fraction(acc)) + 1  # label: dg-large
    else:
        hint = max(1, math.ceil(_guess(lambda: float(s) * _hint_gaussian(float(a)))))
        # k - 1 = top >= TAIL_CUT s passes by the bound: the search always finds a k
        top = math.ceil(TAIL_CUT * s) + 1
        k = _first_passing(lambda j: _dg_passes(s, j + 1, a), hint - 1, top) + 1
    k_float = _round(Fraction(k), fmt, "up")  # None: beyond the finite range  # label: dg-round
    return math.inf if k_float is None else k_float  # label: dg-inf


def _hint_discrete_gaussian(k: int, alpha: float) -> float:
    """A float guess of the largest scale with ``P(|X| >= k) <= alpha`` (unchecked)."""

    def tail(sigma):  # the logarithm of P(|X| >= k), by log-sum-exp
        x = np.arange(0, math.ceil(TAIL_CUT * sigma) + 3, dtype=float)
        logs = -(x * x) / (2 * sigma * sigma)
        top_z = logs.max()
        log_z = top_z + math.log(np.exp(logs - top_z).sum() * 2 - math.exp(-top_z))
        if k >= len(x):
            return -math.inf
        top_t = logs[k:].max()
        return math.log(2) + top_t + math.log(np.exp(logs[k:] - top_t).sum()) - log_z

    lower, upper = 0.0, max(k / max(_hint_gaussian(alpha), 1e-9), 1.0)
    alpha = math.log(alpha)  # compared in logarithms from here on
    while upper <= EXACT_SCALE_LIMIT and tail(upper) <= alpha:
        lower, upper = upper, 2 * upper
    upper = min(upper, EXACT_SCALE_LIMIT)
    for _ in range(60):
        middle = (lower + upper) / 2
        if middle in (lower, upper):
            break
        lower, upper = (middle, upper) if tail(middle) <= alpha else (lower, middle)
    return lower


def accuracy_to_discrete_gaussian_scale(accuracy, alpha, T=None) -> float:
    """The largest ``T`` value ``s`` shown to have ``P(|X| >= max(floor(accuracy), 1)) <=
    alpha`` for the discrete Gaussian of scale ``s`` (``alpha`` in (0, 1); 0 at accuracy 0)."""
    _gate()
    op = "accuracy_to_discrete_gaussian_scale"
    fmt, acc, a = _inputs(accuracy, "accuracy", alpha, T, op, False)
    if acc == 0:
        return 0.0  # label: dg-scale-zero
    k = max(math.floor(acc), 1)  # label: dg-k
    continuous = _guess(lambda: (k - 1) / _hint_gaussian(float(a)))
    if continuous > EXACT_SCALE_LIMIT:
        hint = continuous
    else:
        hint = _guess(_hint_discrete_gaussian, k, float(a))

    def passes(s: Fraction) -> bool:
        return _dg_passes(s, k, a)

    found = _largest_passing(passes, hint, fmt)  # label: dg-scale
    # OpenDP never returns more than the continuous Gaussian's scale: neither do we, where
    # that scale is shown to pass too
    cap = accuracy_to_gaussian_scale(accuracy, alpha, T)
    if cap < found and passes(Fraction(cap)):  # label: dg-cap
        return cap
    return found


# proof: end discrete-gaussian
