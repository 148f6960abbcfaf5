"""The privacy map of the Laplace measurements.

Guarantee (laplace_map.tex): for exact rationals ``scale >= 0`` and
``relaxation >= 0``, ``laplace_map(scale, relaxation)(d_in)`` raises
:class:`FailedMapError` for a negative, NaN or infinite ``d_in``, and otherwise
returns a float ``>=`` the exact value of

    0                               if d_in + relaxation == 0,
    +inf                            if d_in + relaxation > 0 and scale == 0,
    (d_in + relaxation) / scale     otherwise

(the exact quotient rounded up to an f64 once; +inf when it exceeds the f64 range).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from .rounded_map import rounded_up_map

__all__ = ["laplace_map"]


# proof: begin laplace-map
def laplace_map(scale: Fraction, relaxation: Fraction) -> Callable[[object], float]:
    """The map ``d_in -> (d_in + relaxation) / scale``, rounded up, with its edge cases."""
    return rounded_up_map(scale, relaxation, lambda distance: distance / scale)  # label: quotient


# proof: end laplace-map
