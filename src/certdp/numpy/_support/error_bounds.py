"""Exact constants of the standard model of IEEE-754 rounding to nearest.

For a binary format with ``p`` significand bits, the unit roundoff is ``u = 2**-p``; a product
of ``m`` factors ``(1 + delta_i)`` with ``|delta_i| <= u`` lies within ``gamma(m) = m u / (1 - m u)``
of 1 whenever ``m u < 1``.  Every value here is an exact :class:`fractions.Fraction`.
"""

from __future__ import annotations

from fractions import Fraction

from certdp.core.errors import ArithmeticOverflowError

__all__ = ["unit_roundoff", "gamma", "subnormal_half_spacing"]

# proof: begin error-bounds
# f16, f8 and f6 are the reduced-precision formats of the bounded proofs (contracts/smt.py)
_SIGNIFICAND_BITS = {"f64": 53, "f32": 24, "f16": 11, "f8": 4, "f6": 3}  # label: significand-bits
_SMALLEST_SUBNORMAL_EXPONENT = {
    "f64": -1074, "f32": -149, "f16": -24, "f8": -9, "f6": -4,
}  # fmt: skip  # label: subnormal-exponent


def unit_roundoff(T: str) -> Fraction:
    """``2**-p``: the largest relative error of one rounding to nearest in ``T``."""
    return Fraction(1, 1 << _SIGNIFICAND_BITS[str(T)])  # label: unit-roundoff


def gamma(m: int, T: str) -> Fraction:
    """``m u / (1 - m u)`` for ``T``'s unit roundoff ``u``; refuses ``m u >= 1``."""
    mu = m * unit_roundoff(T)
    if mu >= 1:  # label: gamma-refuse
        raise ArithmeticOverflowError(
            f"{m} successive roundings in {T} admit no relative error bound", parameter="m"
        )
    return mu / (1 - mu)  # label: gamma


def subnormal_half_spacing(T: str) -> Fraction:
    """Half the spacing of ``T``'s subnormal numbers: the absolute error of an underflowing
    rounding to nearest."""
    return Fraction(1, 1 << (-_SMALLEST_SUBNORMAL_EXPONENT[str(T)] + 1))  # label: half-spacing


# proof: end error-bounds
