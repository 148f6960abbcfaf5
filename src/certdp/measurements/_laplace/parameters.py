"""The noise scale of a Laplace measurement, as an exact rational.

Guarantee (parameters.tex): :func:`exact_scale` returns the exact value of a finite,
non-negative int, float or rational ``scale``, and raises :class:`MakeMeasurementError`
naming ``scale`` for anything else (negative, NaN, infinite, boolean, not a number);
:func:`integer_grid` tells whether ``k`` is absent for an integer measurement (None or 0).
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Rational

import numpy as np

from certdp.core.errors import MakeMeasurementError

__all__ = ["exact_scale", "integer_grid"]


# proof: begin exact-scale
def exact_scale(scale) -> Fraction:
    """The exact value of a finite ``scale >= 0``; a typed error otherwise."""
    if isinstance(scale, (bool, np.bool_)) or not isinstance(scale, (Rational, float, np.floating)):
        raise MakeMeasurementError(f"must be a number, got {scale!r}", parameter="scale")
    if isinstance(scale, (float, np.floating)):
        if math.isnan(scale):
            raise MakeMeasurementError("must not be NaN", parameter="scale")
        if math.isinf(scale):
            raise MakeMeasurementError(f"must be finite, got {scale!r}", parameter="scale")
        scale = float(scale)
    exact = Fraction(scale)
    if exact < 0:
        raise MakeMeasurementError(f"must not be negative, got {scale!r}", parameter="scale")
    return exact


def integer_grid(k) -> bool:
    """Is ``k`` absent (``None``) or 0, the only grids an integer measurement accepts?"""
    if k is None:
        return True
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)) and k == 0


# proof: end exact-scale
