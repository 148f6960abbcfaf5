"""Executable postconditions of ``make_cdf`` (binary64, checked with exact rationals) and of
``make_quantiles_from_counts`` with ``interpolation="nearest"`` (edges, order).

``cdf_postcondition(x, out)`` holds when ``out[i]`` is ``round(c_i / c_{n-1})`` with
``c_0 = round(0 + x_0)`` and ``c_i = round(c_{i-1} + x_i)``, every ``round`` the rounding of an
exact rational to the nearest binary64 (ties to even): the IEEE semantics of the proof's
formula, replayed here from ``Fraction`` values, independently of the code's NumPy arithmetic.
Only finite results with a non-zero total are checked (a zero or infinite total is IEEE's NaN or
infinity, which the tests compare with OpenDP's output).  Not an audit row: a Function has no
map, so the audit's contract template (a stability bound) does not apply.
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = [
    "round_binary64",
    "cdf_expected",
    "cdf_postcondition",
    "nearest_quantiles_postcondition",
]


def round_binary64(value: Fraction) -> float:
    """The binary64 nearest to ``value`` (ties to even; ``OverflowError`` beyond the range):
    CPython's int true division rounds correctly."""
    return value.numerator / value.denominator


def cdf_expected(x: list[float]) -> list[float] | None:
    """The binary64 CDF of the finite floats ``x`` by the formula above, or ``None`` when an
    intermediate is not finite or the total is zero (outside what this check covers)."""
    total, cumulative = Fraction(0), []
    try:
        for value in x:
            total = Fraction(round_binary64(total + Fraction(value)))
            cumulative.append(total)
        if total == 0:
            return None
        return [round_binary64(c / total) for c in cumulative]
    except OverflowError:
        return None


def cdf_postcondition(x: list[float], out: list[float]) -> bool:
    """Does ``out`` hold the binary64 CDF of ``x`` (exact comparison, ``-0.0 == 0.0``)?
    ``True`` where the check does not apply (``cdf_expected`` is ``None``)."""
    expected = cdf_expected(x)
    if expected is None:
        return True
    return len(out) == len(expected) and all(
        math.isfinite(o) and o == e for o, e in zip(out, expected)
    )


def nearest_quantiles_postcondition(edges: list, counts: list, out: list) -> bool:
    """For ``interpolation="nearest"`` on counts that are all ``>= 0`` with a positive total:
    every output is one of ``edges`` and the outputs do not decrease with ``alpha`` (the
    running sums of non-negative counts do not decrease in any rounding to nearest, nor their
    quotients by the positive total, so the bin index and the nearer edge do not either).
    ``True`` where it does not apply."""
    if not counts or any(c < 0 for c in counts) or sum(Fraction(c) for c in counts) <= 0:
        return True
    allowed = {Fraction(e) for e in edges}
    values = [Fraction(v) for v in out]
    return all(v in allowed for v in values) and all(a <= b for a, b in zip(values, values[1:]))
