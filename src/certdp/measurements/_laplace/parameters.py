"""The noise scale of a Laplace measurement, as an exact rational.

Guarantee (parameters.tex): :func:`exact_scale` returns the exact value of a finite,
non-negative int, float or rational ``scale`` (NumPy integers and floats, a long double
included, and a ``Fraction`` with NumPy integer fields) whose numerator and denominator have at
most :data:`MAX_SCALE_BITS` bits, and raises :class:`MakeMeasurementError` naming ``scale`` for
anything else (negative, NaN, infinite, boolean, not a number, a subclass of a NumPy float, a
rational whose numerator or denominator is not an integer, an ``int`` subclass); the sizes
are tested on the two integers read, before they are reduced;
:func:`integer_grid` tells whether ``k`` is absent for an integer measurement (None or 0).
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Rational

import numpy as np

from certdp.core.conversion import (
    NUMPY_BINARY64_FLOAT_IDS,
    NUMPY_INTEGER_TYPE_IDS,
)
from certdp.core.errors import MakeMeasurementError, shown, type_mismatch
from certdp.core.exact_type import type_ids

__all__ = ["exact_scale", "integer_grid"]


# proof: begin exact-scale
#: The most bits the numerator and denominator of an exact scale may have: every finite f64
#: has a numerator below 2^1024 and a denominator of at most 2^1074.
MAX_SCALE_BITS = 1075  # label: max-scale-bits
#: NumPy's float classes, by ``id`` (a subclass, which may override ``as_integer_ratio`` or
#: ``__float__``, is none of them).
NUMPY_FLOAT_TYPE_IDS = NUMPY_BINARY64_FLOAT_IDS | type_ids(np.longdouble)  # label: numpy-float-ids


def exact_scale(scale) -> Fraction:
    """The exact value of a finite ``scale >= 0``; a typed error otherwise."""
    kind = type(scale)  # the class itself, never ``scale.__class__``
    if issubclass(kind, (bool, np.bool_)) or not issubclass(kind, (Rational, float, np.floating)):
        raise type_mismatch(MakeMeasurementError)(
            f"must be a number, got a {kind.__name__}", parameter="scale"
        )
    if issubclass(kind, (float, np.floating)):
        if issubclass(kind, np.floating) and id(kind) not in NUMPY_FLOAT_TYPE_IDS:
            raise type_mismatch(MakeMeasurementError)(  # label: numpy-float-subclass
                f"a {kind.__name__} (a subclass of a NumPy scalar type) is refused",
                parameter="scale",
            )
        if math.isnan(scale):
            raise MakeMeasurementError("must not be NaN", parameter="scale")
        if np.isinf(scale):  # label: scale-finite
            raise MakeMeasurementError(f"must be finite, got {shown(scale)}", parameter="scale")
        if kind is np.longdouble:  # label: long-double
            numerator, denominator = scale.as_integer_ratio()
        else:  # a Python float (its stored double, whatever a subclass overrides) or binary16/32
            binary64 = scale if issubclass(kind, float) else float(scale)
            numerator, denominator = float.as_integer_ratio(binary64)  # label: float-value
    else:
        # a Fraction keeps the fields it was built from (NumPy integers, say), whose own
        # methods and arithmetic are not Python's; an int or NumPy scalar is its own numerator
        # (a subclass's numerator property is never asked)
        plain = issubclass(kind, (int, np.generic))
        fields = (scale, 1) if plain else (scale.numerator, scale.denominator)
        if not all(
            type(field) is int or id(type(field)) in NUMPY_INTEGER_TYPE_IDS for field in fields
        ):  # label: integer-fields
            kinds = " and ".join(type(field).__name__ for field in fields)
            raise type_mismatch(MakeMeasurementError)(
                f"must be a rational of integers, got one whose numerator and denominator are "
                f"of types {kinds}",
                parameter="scale",
            )
        numerator, denominator = int(fields[0]), int(fields[1])  # label: rational-fields
        if denominator == 0:  # no Fraction has one, but another Rational class may
            raise MakeMeasurementError("a rational's denominator must not be 0", parameter="scale")
    # the size test on the two ints read, before Fraction reduces them (a gcd whose time
    # grows with their size)
    if max(numerator.bit_length(), denominator.bit_length()) > MAX_SCALE_BITS:
        raise MakeMeasurementError(  # label: scale-bits
            f"as an exact rational, numerator and denominator must have at most "
            f"{MAX_SCALE_BITS} bits (every float's do): the samplers' time grows with them",
            parameter="scale",
        )
    exact = Fraction(numerator, denominator)  # label: exact-value
    if kind is Fraction:
        scale = exact  # the same value and text, with Python int fields
    if exact < 0:
        raise MakeMeasurementError(f"must not be negative, got {shown(scale)}", parameter="scale")
    return exact


def integer_grid(k) -> bool:
    """Is ``k`` absent (``None``) or 0, the only grids an integer measurement accepts?"""
    if k is None:
        return True
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)) and k == 0


# proof: end exact-scale
