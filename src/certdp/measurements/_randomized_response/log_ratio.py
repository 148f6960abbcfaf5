"""``inf_scaled_abs_ln``: the privacy loss of randomized response, rounded up.

Guarantee (log_ratio.tex): for an integer ``c >= 0`` and a rational ``q > 0`` it returns the
smallest f64 value ``>= c * |ln q|``, checked against an exact rational enclosure of ``ln q``
by :func:`certdp.numeric.round_enclosure` (never a float logarithm).
"""

from __future__ import annotations

from fractions import Fraction

from certdp.numeric.elementary import _ln_enclosure, round_enclosure

__all__ = ["inf_scaled_abs_ln"]


# proof: begin scaled-abs-ln
def inf_scaled_abs_ln(c: int, q: Fraction) -> float:
    """The smallest f64 ``>= c * |ln q|`` (``c`` a non-negative integer, ``q`` a positive
    rational)."""
    if c == 0 or q == 1:  # label: zero-loss
        return 0.0

    def enclose(precision: int) -> tuple[Fraction, Fraction]:
        lo, hi = _ln_enclosure(q, precision)  # lo <= ln q <= hi  # label: ln-q
        if q > 1:
            return c * lo, c * hi  # label: positive
        return -c * hi, -c * lo  # |ln q| = -ln q  # label: negative

    return round_enclosure(enclose, "f64", "up")  # label: round-up


# proof: end scaled-abs-ln
