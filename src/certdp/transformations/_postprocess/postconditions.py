"""Executable postconditions of ``make_cdf`` (binary64 or binary32, checked with exact
rationals) and of ``make_quantiles_from_counts`` with ``interpolation="nearest"``.

``cdf_postcondition(x, out, TA)`` holds when ``out[i]`` is ``round(c_i / c_{n-1})`` with
``c_0 = round(0 + round(x_0))`` and ``c_i = round(c_{i-1} + round(x_i))``, every ``round`` the
rounding of an exact rational to the nearest value of the format ``TA`` (ties to even): the
IEEE semantics of the proof's formula, replayed here from ``Fraction`` values, independently of
the code's NumPy arithmetic.  Only finite results with a non-zero total are checked (a zero or
infinite total is IEEE's NaN or infinity, which the tests compare with OpenDP's output); NaN in
``x`` is refused by ``make_cdf``, and the check is ``False`` on it.

``nearest_quantiles_postcondition(edges, counts, alphas, out)``: on any counts, one output per
alpha, each an edge, not decreasing with alpha; on non-negative counts with a positive total
(in the formats' normal range), each output is also a nearest edge of an exact alpha'-quantile
bin for some alpha' within the rounding allowance ``delta`` of alpha.  Not an audit row: a
Function has no map, so the audit's contract template (a stability bound) does not apply.
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = [
    "round_binary64",
    "round_to_format",
    "cdf_expected",
    "cdf_postcondition",
    "nearest_admissible",
    "nearest_quantiles_postcondition",
]

#: (precision p, least normal exponent, greatest exponent) of the IEEE formats.
_FORMATS = {"f64": (53, -1022, 1023), "f32": (24, -126, 127)}


def round_binary64(value: Fraction) -> float:
    """The binary64 nearest to ``value`` (ties to even; ``OverflowError`` beyond the range):
    CPython's int true division rounds correctly."""
    return value.numerator / value.denominator


def round_to_format(value: Fraction, TA: str) -> Fraction:
    """The value of the format ``TA`` nearest to ``value`` (ties to even, subnormals kept), by
    integer arithmetic; ``OverflowError`` where IEEE rounds to an infinity."""
    p, emin, emax = _FORMATS[TA]
    if value == 0:
        return Fraction(0)
    magnitude = abs(value)
    e = max(magnitude.numerator.bit_length() - magnitude.denominator.bit_length(), emin)
    while Fraction(2) ** e > magnitude and e > emin:
        e -= 1
    while Fraction(2) ** (e + 1) <= magnitude:
        e += 1
    scaled = magnitude / Fraction(2) ** (e - p + 1)  # in [2**(p-1), 2**p) unless subnormal
    whole, rest = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * rest
    if twice > scaled.denominator or (twice == scaled.denominator and whole % 2):
        whole += 1
    result = whole * Fraction(2) ** (e - p + 1)
    if result > (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax:
        raise OverflowError(f"beyond the range of {TA}")
    return result if value > 0 else -result


def cdf_expected(x: list[float], TA: str = "f64") -> list[float] | None:
    """The CDF of the finite floats ``x`` in the format ``TA`` by the formula above, or
    ``None`` when an intermediate is not finite or the total is zero (outside this check)."""
    total, cumulative = Fraction(0), []
    try:
        for value in x:
            entry = round_to_format(Fraction(value), TA)
            total = round_to_format(total + entry, TA)
            cumulative.append(total)
        if total == 0:
            return None
        return [float(round_to_format(c / total, TA)) for c in cumulative]
    except OverflowError:
        return None


def cdf_postcondition(x: list[float], out: list[float], TA: str = "f64") -> bool:
    """Does ``out`` hold the ``TA`` CDF of ``x`` (exact comparison, ``-0.0 == 0.0``)?
    ``False`` when ``x`` holds a NaN or ``TA`` is not f32 or f64; ``True`` where the check does
    not apply (``cdf_expected`` is ``None``: an infinite or zero total)."""
    if TA not in _FORMATS or any(type(v) is float and math.isnan(v) for v in x):
        return False
    expected = cdf_expected(x, TA)
    if expected is None:
        return True
    return len(out) == len(expected) and all(
        math.isfinite(o) and o == e for o, e in zip(out, expected)
    )


def nearest_admissible(cumulative: list[Fraction], alpha: Fraction) -> set[int]:
    """The edge indices that are exact nearest alpha-quantiles: for every bin ``k`` with
    ``C_{k-1} <= alpha <= C_k`` (``C_{-1} = 0``, ``C`` the exact cdf), ``k`` if alpha is nearer
    ``C_{k-1}``, ``k + 1`` if nearer ``C_k``, both at a tie."""
    result, left = set(), Fraction(0)
    for k, right in enumerate(cumulative):
        if left <= alpha <= right:
            if alpha - left <= right - alpha:
                result.add(k)
            if alpha - left >= right - alpha:
                result.add(k + 1)
        left = right
    return result


def nearest_quantiles_postcondition(
    edges: list, counts: list, alphas: list, out: list, TA: str | None = None, F: str = "f64"
) -> bool:
    """Is ``out`` a valid output of ``make_quantiles_from_counts(edges, alphas, "nearest",
    TA, F)`` on ``counts`` (one more count than edges: the outer two dropped)?

    Always: one output per alpha, each one of ``edges``, not decreasing with alpha (the code's
    bin indices do not decrease, whatever the counts' signs).  On counts all ``>= 0`` whose
    exact total lies in ``[2**-120, 2**100]`` (normal in f32 and f64, with room) and, for a
    float ``TA``, of at most ``2**16`` counts, also: each output's index lies between the
    least exact answer (``nearest_admissible``) at ``alpha - delta`` and the greatest at
    ``alpha + delta``, with ``delta = (2 m + 8) u``, ``m`` the number of counts and ``u`` the
    unit roundoff of ``F`` and of a float ``TA`` (the rounding of the running sums, of the
    quotients and of the two differences the code compares).  ``TA`` defaults to f64 for float
    counts and to an exact integer sum otherwise."""
    edges = [Fraction(e) for e in edges]
    values = []
    for v in out:
        if type(v) is float and not math.isfinite(v):
            return False
        values.append(Fraction(v))
    if len(values) != len(alphas) or any(v not in edges for v in values):
        return False
    if any(a > b for a, b in zip(values, values[1:])):
        return False
    if TA is None:
        TA = "f64" if any(type(c) is float for c in counts) else "int"
    counts = [Fraction(c) for c in counts]
    if len(counts) == len(edges) + 1:
        counts = counts[1:-1]
    total = sum(counts)
    in_range = Fraction(2) ** -120 <= total <= Fraction(2) ** 100
    if not counts or any(c < 0 for c in counts) or not in_range:
        return True
    if TA in _FORMATS and len(counts) > 2**16:
        return True
    u = max(Fraction(1, 2 ** _FORMATS[name][0]) for name in {F, TA} if name in _FORMATS)
    delta = (2 * len(counts) + 8) * u
    cumulative, running = [], Fraction(0)
    for c in counts:
        running += c
        cumulative.append(running / total)
    for alpha, v in zip(alphas, values):
        a = Fraction(alpha)
        low = min(nearest_admissible(cumulative, max(a - delta, Fraction(0))))
        high = max(nearest_admissible(cumulative, min(a + delta, Fraction(1))))
        if not edges[low] <= v <= edges[high]:
            return False
    return True
