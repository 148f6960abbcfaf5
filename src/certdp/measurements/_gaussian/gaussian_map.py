"""The zCDP privacy map of the Gaussian measurement, and the L2 rounding distance.

Guarantee (gaussian_map.tex): for exact rationals ``scale >= 0`` and ``relaxation >= 0``,
``gaussian_map(scale, relaxation)(d_in)`` raises :class:`FailedMapError` for a negative,
NaN or infinite ``d_in`` and otherwise returns a float ``>=`` the exact value of

    0                                       if d_in + relaxation == 0,
    +inf                                    if d_in + relaxation > 0 and scale == 0,
    (d_in + relaxation)^2 / (2 scale^2)     otherwise

(the exact rational rounded up to an f64 once; +inf beyond the f64 range).
``l2_relaxation(r, size)`` returns the exact rational ``r * s`` with ``s`` the f64 square
root of ``size`` rounded up, so ``l2_relaxation(r, size) >= r * sqrt(size)``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from certdp.measurements._laplace.rounded_map import rounded_up_map
from certdp.numeric import inf_cast, inf_sqrt

__all__ = ["gaussian_map", "l2_relaxation"]


# proof: begin gaussian-map
def gaussian_map(scale: Fraction, relaxation: Fraction) -> Callable[[object], float]:
    """The map ``d_in -> (d_in + relaxation)^2 / (2 scale^2)``, rounded up, with its edge
    cases."""
    return rounded_up_map(
        scale,
        relaxation,
        lambda distance: distance * distance / (2 * scale * scale),  # label: rho
    )


def l2_relaxation(relaxation: Fraction, size: int) -> Fraction:
    """``relaxation * s`` exactly, where ``s >= sqrt(size)`` is the f64 square root of
    ``size`` rounded up (``size`` cast to f64 rounding up first)."""
    if relaxation == 0:  # label: no-relaxation
        return Fraction(0)
    root = inf_sqrt(inf_cast(Fraction(size), "f64"), "f64")  # label: root-up
    return relaxation * Fraction(root)  # label: scaled


# proof: end gaussian-map
