"""What the postprocessors read: a type name among those allowed, a vector argument of that
type, and the IEEE format (``numpy.float32`` or ``numpy.float64``) a float type computes in.

Guarantee (arguments.tex): :func:`type_name` returns one of ``allowed`` or raises a typed error
naming the parameter; :func:`float_vector` returns the list of the argument's values each rounded
to the nearest value of the format, :func:`integer_vector` the list of its integers, each checked
to lie in the type's range; anything else is a ``FailedFunctionError`` naming ``arg``.
"""

from __future__ import annotations

import math

import numpy as np

from certdp.core.conversion import NUMPY_INTEGER_TYPES
from certdp.core.errors import FailedFunctionError, shown, type_mismatch
from certdp.core.exact_type import type_is
from certdp.core.types import _NUMPY_ALIASES, _PYTHON_ALIASES, CarrierType

__all__ = ["type_name", "float_vector", "integer_vector", "FORMAT", "to_float", "MAX_LENGTH"]

# proof: begin arguments
#: The NumPy scalar type computing in each float format (IEEE, round to nearest even).
FORMAT = {"f32": np.float32, "f64": np.float64}

#: The longest vector a postprocessor takes or builds (it is held in memory).
MAX_LENGTH = 1 << 26

_ALIASES = {"int": "i32", "float": "f64"}


def type_name(T, parameter: str, allowed: tuple, error) -> str:
    """``T`` (a name, ``int``/``float`` or a NumPy scalar type) as one of ``allowed``."""
    name = T
    for python_type, alias in (*_PYTHON_ALIASES.items(), *_NUMPY_ALIASES.items()):
        if T is python_type:
            name = alias  # label: type-python
    if type(name) is str:
        name = _ALIASES.get(name.strip(), name.strip())  # label: type-alias
    if name not in allowed:  # label: type-allowed
        raise type_mismatch(error)(
            f"must be one of {', '.join(allowed)}, got {shown(T)}", parameter=parameter
        )
    return name


def _vector(arg) -> list:
    """``arg`` (a list, tuple or 1-d array) as a non-empty list of at most MAX_LENGTH items, or a
    refusal naming ``arg``."""
    if type(arg) is np.ndarray and arg.ndim == 1:
        arg = arg.tolist()  # label: vector-array
    if not type_is(arg, list, tuple):  # label: vector-type
        raise type_mismatch(FailedFunctionError)(
            f"must be a list, got {shown(arg)}", parameter="arg"
        )
    if not 0 < len(arg) <= MAX_LENGTH:  # label: vector-length
        raise FailedFunctionError(
            f"must hold at least 1 and at most {MAX_LENGTH} values, got {len(arg)}",
            parameter="arg",
        )
    return list(arg)


def to_float(value: int, F: str):
    """The integer ``value`` rounded to the nearest value of the format ``F`` (ties to even;
    beyond its range, an infinity), as OpenDP's integer-to-float cast rounds."""
    if abs(value) <= 1 << 53:  # label: to-float-exact
        return FORMAT[F](float(value))  # float() is exact here; one rounding to F
    if F == "f64":
        return np.float64(float(value))  # label: to-float-f64
    magnitude, shift = abs(value), abs(value).bit_length() - 24
    quotient, remainder = divmod(magnitude, 1 << shift)
    half = 1 << (shift - 1)
    if remainder > half or (remainder == half and quotient % 2 == 1):  # label: to-float-even
        quotient += 1
    with np.errstate(over="ignore"):
        rounded = np.float32(math.ldexp(float(quotient), shift))  # label: to-float-f32
    return -rounded if value < 0 else rounded


def integer_vector(arg, T: str) -> list:
    """The non-empty vector ``arg`` of integers of type ``T`` (a bool is no integer)."""
    values = _vector(arg)
    for value in values:
        exact = None
        if type_is(value, int, *NUMPY_INTEGER_TYPES):  # label: int-type
            exact = CarrierType(T).exact(int(value))
        if exact is None:  # label: int-range
            raise FailedFunctionError(
                f"every value must be an integer of type {T}, got {shown(value)}",
                parameter="arg",
            )
    return [int(value) for value in values]


def float_vector(arg, F: str) -> list:
    """The non-empty vector ``arg`` of floats (Python or NumPy floats, not NaN), each rounded to
    the nearest value of the format ``F``."""
    values = _vector(arg)
    rounded = []
    for value in values:
        if not type_is(value, float, np.float64, np.float32) or math.isnan(value):
            raise FailedFunctionError(  # label: float-type
                f"every value must be a float (not NaN), got {shown(value)}", parameter="arg"
            )
        with np.errstate(over="ignore"):
            rounded.append(FORMAT[F](value))  # label: float-round
    return rounded


# proof: end arguments
