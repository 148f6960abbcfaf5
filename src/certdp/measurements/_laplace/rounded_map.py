"""The shape shared by the privacy maps of the Laplace and Gaussian measurements.

Guarantee (rounded_map.tex): for exact rationals ``scale >= 0`` and ``relaxation >= 0`` and a
function ``bound`` from positive rationals to rationals, ``rounded_up_map(scale, relaxation,
bound)(d_in)`` raises :class:`FailedMapError` for a ``d_in`` that is not a number, is NaN,
infinite or negative, and otherwise returns a float ``>=`` the exact value of

    0                          if d_in + relaxation == 0,
    +inf                       if d_in + relaxation > 0 and scale == 0,
    bound(d_in + relaxation)   otherwise

(the exact rational rounded up to an f64 once; +inf beyond the f64 range).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from numbers import Rational

import numpy as np

from certdp.core.conversion import exact_scalar
from certdp.core.errors import ArithmeticOverflowError, FailedMapError, shown
from certdp.numeric import inf_cast

__all__ = ["rounded_up_map"]


# proof: begin rounded-map
def _exact_distance(d_in) -> Fraction:
    if isinstance(d_in, (bool, np.bool_)) or not isinstance(d_in, (Rational, float, np.floating)):
        raise FailedMapError(f"must be a number, got {shown(d_in)}", parameter="d_in")
    # an int, float or Fraction of int fields, of the same value; anything else is refused
    # (subclasses, which could override a conversion, and fractions of other fields included)
    d_in = exact_scalar(d_in, "d_in", FailedMapError)
    if isinstance(d_in, float) and not math.isfinite(d_in):
        raise FailedMapError(f"must be finite, got {shown(d_in)}", parameter="d_in")
    return Fraction(d_in)


def rounded_up_map(
    scale: Fraction, relaxation: Fraction, bound: Callable[[Fraction], Fraction]
) -> Callable[[object], float]:
    """The map ``d_in -> bound(d_in + relaxation)``, rounded up, with its edge cases; ``bound``
    is called only with a positive distance and when ``scale > 0``."""

    def privacy_map(d_in) -> float:
        d_in = _exact_distance(d_in)  # label: exact-d-in
        if d_in < 0:  # label: negative-d-in
            raise FailedMapError(f"must be non-negative, got {shown(d_in)}", parameter="d_in")
        distance = d_in + relaxation  # exact  # label: distance
        if distance == 0:  # label: zero-distance
            return 0.0
        if scale == 0:  # label: zero-scale
            return math.inf
        try:
            return inf_cast(bound(distance), "f64")  # label: bound
        except ArithmeticOverflowError:
            return math.inf  # label: overflow

    return privacy_map


# proof: end rounded-map
