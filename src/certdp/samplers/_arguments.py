"""Checking the arguments of the public sampling functions."""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Rational

from certdp.core.errors import FailedFunctionError

__all__ = ["exact_rational"]


def exact_rational(value, parameter: str) -> Fraction:
    """The exact value of a finite int, float or rational number, else a typed error."""
    if isinstance(value, bool) or not isinstance(value, (Rational, float)):
        raise FailedFunctionError(f"must be a rational number, got {value!r}", parameter=parameter)
    if isinstance(value, float) and not math.isfinite(value):
        raise FailedFunctionError(f"must be finite, got {value!r}", parameter=parameter)
    return Fraction(value)
