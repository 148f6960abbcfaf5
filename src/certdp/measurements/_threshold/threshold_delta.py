"""The delta of a thresholded release: the chance that a key held on one side only survives.

Guarantee (threshold_delta.tex): for an exact rational ``scale > 0`` and integers
``distance >= 0`` and ``0 <= l0 < 2^64``, ``laplace_tail_enclosure(scale, distance, precision)``
returns exact rationals ``lo <= P[Z >= distance] <= hi`` for ``Z ~ DLap(0, scale)``, whose
width tends to 0 as ``precision`` grows; ``threshold_delta(scale, distance, l0)`` returns the
smallest f64 ``>= 1 - (1 - P[Z >= distance])^l0`` (exactly, no float is trusted) and raises
:class:`FailedMapError` for ``l0 >= 2^64``.
"""

from __future__ import annotations

from fractions import Fraction

from certdp.core.errors import FailedMapError
from certdp.numeric import round_enclosure, round_rational
from certdp.numeric.elementary import _exp_enclosure

__all__ = ["laplace_tail_enclosure", "threshold_delta"]


# proof: begin threshold-delta
#: Beyond this exponent ``exp(-x)`` is enclosed by ``[0, 2^-1442]`` (``e^-1000 < 2^-1442``).
FAR_EXPONENT = 1000  # label: far-exponent


def _exp_neg(x: Fraction, precision: int) -> tuple[Fraction, Fraction]:
    """Exact rationals ``lo <= exp(-x) <= hi`` for a rational ``x >= 0``."""
    if x > FAR_EXPONENT:
        return Fraction(0), Fraction(1, 1 << 1442)  # label: exp-far
    return _exp_enclosure(-x, precision)  # label: exp-near


def laplace_tail_enclosure(
    scale: Fraction, distance: int, precision: int
) -> tuple[Fraction, Fraction]:
    """Exact rationals enclosing ``P[Z >= distance] = exp(-distance/scale) / (1 +
    exp(-1/scale))`` for ``Z ~ DLap(0, scale)``, ``scale > 0``, ``distance >= 0``."""
    top_lo, top_hi = _exp_neg(distance / scale, precision)  # label: tail-top
    unit_lo, unit_hi = _exp_neg(1 / scale, precision)  # label: tail-unit
    return top_lo / (1 + unit_hi), top_hi / (1 + unit_lo)  # label: tail-quotient


def _power_enclosure(q_lo: Fraction, q_hi: Fraction, n: int, bits: int) -> tuple[int, int]:
    """Integers ``a <= 2^bits q^n <= b`` for every ``q`` in ``[q_lo, q_hi]``, ``0 <= q_lo <=
    q_hi <= 1``, ``n >= 0``: square and multiply in fixed point, lower ends cut down and upper
    ends cut up."""
    one = 1 << bits
    base_lo = (q_lo.numerator << bits) // q_lo.denominator  # label: power-base-lo
    base_hi = -((-q_hi.numerator << bits) // q_hi.denominator)  # label: power-base-hi
    lo = hi = one
    while n:
        if n & 1:
            lo, hi = (lo * base_lo) >> bits, -((-hi * base_hi) >> bits)  # label: power-multiply
        base_lo, base_hi = (
            (base_lo * base_lo) >> bits,
            -((-base_hi * base_hi) >> bits),
        )  # label: power-square
        n >>= 1
    return lo, hi


def threshold_delta(scale: Fraction, distance: int, l0: int) -> float:
    """The smallest f64 ``>= 1 - (1 - p)^l0`` with ``p = P[Z >= distance]``, ``Z ~ DLap(0,
    scale)``: the chance that one of ``l0`` keys, each ``distance`` below the threshold,
    survives it."""
    if l0 >= 1 << 64:  # label: l0-range
        raise FailedMapError(f"l0 must be below 2^64, got {l0}", parameter="d_in")
    if l0 == 0:
        return 0.0  # label: no-keys
    if distance / scale > 800 + l0.bit_length():
        # 0 < delta <= l0 p <= l0 exp(-distance/scale) < e^-800 < 2^-1154
        return round_rational(Fraction(1, 1 << 1154), "f64", "up")  # label: far-tail
    bits_extra = l0.bit_length() + 8

    def enclose(precision: int) -> tuple[Fraction, Fraction]:
        p_lo, p_hi = laplace_tail_enclosure(scale, distance, precision)  # label: p-enclosure
        p_hi = min(p_hi, Fraction(1))  # label: p-at-most-one
        bits = precision + bits_extra
        kept_lo, kept_hi = _power_enclosure(1 - p_hi, 1 - p_lo, l0, bits)  # label: kept
        return 1 - Fraction(kept_hi, 1 << bits), 1 - Fraction(kept_lo, 1 << bits)  # label: delta

    return round_enclosure(enclose, "f64", "up")  # label: round-up


# proof: end threshold-delta
