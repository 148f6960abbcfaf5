"""Checking the arguments of the public sampling functions.

Every public ``sample_*`` function takes its arguments through the boundary
(:mod:`certdp.core.conversion`): a NumPy scalar or ``Decimal`` becomes the exact Python value
it denotes before any arithmetic, and anything that has none is refused with a
:class:`FailedFunctionError` naming the parameter.
"""

from __future__ import annotations

import functools
import inspect
import math
from fractions import Fraction

from certdp.core.conversion import exact_argument
from certdp.core.errors import FailedFunctionError, shown
from certdp.core.exact_type import type_is

__all__ = ["exact_rational", "exact_inputs"]


def exact_rational(value, parameter: str) -> Fraction:
    """The exact value of a finite int, float or rational number, else a typed error."""
    value = exact_argument(value, parameter, FailedFunctionError)
    if not type_is(value, int, float, Fraction):
        raise FailedFunctionError(
            f"must be a rational number, got {shown(value)}", parameter=parameter
        )
    if type(value) is float and not math.isfinite(value):
        raise FailedFunctionError(f"must be finite, got {shown(value)}", parameter=parameter)
    return Fraction(value)


def exact_inputs(function):
    """``function`` with every argument passed through the boundary first."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as error:
            raise FailedFunctionError(str(error), parameter="arguments") from None
        for name, value in bound.arguments.items():
            bound.arguments[name] = exact_argument(value, name, FailedFunctionError)
        try:
            return function(*bound.args, **bound.kwargs)
        except MemoryError:
            raise FailedFunctionError(
                "the draw these arguments ask for does not fit in memory", parameter="arguments"
            ) from None

    return wrapper
