"""Carrier types, named as OpenDP names them (``"i32"``, ``"f64"``, ...).

A carrier type decides which Python values are members of an unbounded atom
domain.  Membership is exact: an ``"f32"`` value is any float (Python or numpy)
whose value is exactly representable in binary32; an ``"i8"`` value is any
integer in ``[-128, 127]``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .conversion import (
    NUMPY_BINARY64_FLOAT_IDS,
    NUMPY_INTEGER_TYPE_IDS,
    NUMPY_INTEGER_TYPES,
    exact_argument,
)
from .errors import MakeDomainError
from .exact_type import type_is

__all__ = [
    "CarrierType",
    "carrier",
    "infer_type",
    "INTEGER_TYPES",
    "FLOAT_TYPES",
    "NUMERIC_TYPES",
]

# proof: begin names
INTEGER_TYPES = ("i8", "i16", "i32", "i64", "i128", "u8", "u16", "u32", "u64", "u128", "usize")
FLOAT_TYPES = ("f32", "f64")
NUMERIC_TYPES = INTEGER_TYPES + FLOAT_TYPES
ALL_TYPES = NUMERIC_TYPES + ("bool", "String")

_NUMPY_DTYPES = {
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
    "u16": "uint16",
    "u32": "uint32",
    "u64": "uint64",
    "usize": "uint64",
    "f32": "float32",
    "f64": "float64",
}

# OpenDP accepts Python type objects in place of names.
_PYTHON_ALIASES = {int: "i32", float: "f64", bool: "bool", str: "String"}
# ... and NumPy scalar types (np.longlong and np.ulonglong as i128 and u128, as OpenDP reads them)
_NUMPY_ALIASES = {
    np.int8: "i8",
    np.int16: "i16",
    np.int32: "i32",
    np.int64: "i64",
    np.longlong: "i128",
    np.uint8: "u8",
    np.uint16: "u16",
    np.uint32: "u32",
    np.uint64: "u64",
    np.ulonglong: "u128",
    np.float32: "f32",
    np.float64: "f64",
    np.bool_: "bool",
    np.str_: "String",
}
# ... and the Python type names as strings.
_STRING_ALIASES = {"int": "i32", "float": "f64", "str": "String"}
# proof: end names


# proof: begin carrier-type
@dataclass(frozen=True)
class CarrierType:
    """A named carrier type with its exact value set."""

    name: str

    def __post_init__(self):
        if type(self.name) is not str or self.name not in ALL_TYPES:  # label: valid-name
            raise MakeDomainError(
                f"unknown carrier type; expected one of {', '.join(ALL_TYPES)}", parameter="T"
            )

    @property
    def is_integer(self) -> bool:
        return self.name in INTEGER_TYPES

    @property
    def is_float(self) -> bool:
        return self.name in FLOAT_TYPES

    @property
    def is_numeric(self) -> bool:
        return self.name in NUMERIC_TYPES

    @property
    def bits(self) -> int:
        if self.name == "usize":
            return 64
        return int(self.name[1:])  # label: bits

    @property
    def is_signed(self) -> bool:
        return self.name.startswith("i")  # label: signed

    @property
    def min(self) -> int | float:
        if self.is_float:
            return -self.max  # label: float-min
        if not self.is_signed:
            return 0  # label: unsigned-min
        return -(1 << (self.bits - 1))  # label: signed-min

    @property
    def max(self) -> int | float:
        if self.name == "f64":
            return float((2**53 - 1) * 2**971)  # label: f64-max
        if self.name == "f32":
            return float((2**24 - 1) * 2**104)  # label: f32-max
        if self.is_signed:
            return (1 << (self.bits - 1)) - 1  # label: signed-max
        return (1 << self.bits) - 1  # label: unsigned-max

    @property
    def mantissa_bits(self) -> int:
        """Explicitly stored mantissa bits (52 for f64, 23 for f32)."""
        return {"f64": 52, "f32": 23}[self.name]

    @property
    def numpy_dtype(self) -> np.dtype:
        """The numpy dtype holding this type exactly (object for 128-bit, bool and String)."""
        return np.dtype(_NUMPY_DTYPES.get(self.name, "O"))

    @property
    def python_type(self) -> type:
        """The exact built-in type of this type's values after conversion."""
        if self.name == "bool":
            return bool
        if self.name == "String":
            return str
        return int if self.is_integer else float

    def exact(self, value):
        """``value`` as the exact Python value of this type it denotes, or ``None``.

        Python values must be of the exact built-in type: a subclass (an ``IntEnum``, a
        ``str`` with its own ``__eq__``) could compare differently from the value it holds,
        and a ``bool`` is never a number.  NumPy scalars of the exact NumPy types (never a
        subclass, which may override ``__int__`` or ``__float__``) become the Python value
        they denote (``int``, ``float``, ``bool``, ``str``), so that no fixed-width arithmetic
        or width-specific comparison ever applies to them.
        """
        kind = type(value)
        if self.name == "bool":  # label: exact-bool
            return value if kind is bool else bool(value) if kind is np.bool_ else None
        if self.name == "String":  # label: exact-str
            return value if kind is str else str(value) if kind is np.str_ else None
        if self.is_integer:
            if kind is not int:
                if id(kind) not in NUMPY_INTEGER_TYPE_IDS:
                    return None
                value = int(value)  # label: exact-numpy-int
            return value if self.min <= value <= self.max else None  # label: exact-int-range
        if kind is not float:
            if id(kind) in NUMPY_BINARY64_FLOAT_IDS:  # label: exact-numpy-float
                value = float(value)
            elif kind is np.longdouble:
                as_float = float(value)
                if not (as_float == value or (math.isnan(as_float) and np.isnan(value))):
                    return None
                value = as_float  # label: exact-longdouble
            else:
                return None  # label: exact-not-float
        if self.name == "f32" and math.isfinite(value) and not _is_binary32(value):
            return None  # label: exact-f32
        return value

    def contains(self, value) -> bool:
        """Is ``value`` exactly a value of this carrier type (see :meth:`exact`)?"""
        return self.exact(value) is not None

    def __str__(self) -> str:
        return self.name


def _is_binary32(value: float) -> bool:
    with np.errstate(over="ignore"):
        return float(np.float32(value)) == value  # label: round-trip


# proof: end carrier-type


# proof: begin descriptors
def carrier(T) -> CarrierType:
    """Normalise a type descriptor (``"f64"``, ``"float"``, ``float``, ``np.float32``,
    ``CarrierType``) to a :class:`CarrierType`."""
    if type(T) is CarrierType:  # label: carrier-exact
        return T
    for alias, name in (*_PYTHON_ALIASES.items(), *_NUMPY_ALIASES.items()):  # label: carrier-alias
        if T is alias:
            return CarrierType(name)
    is_class = issubclass(type(T), type)
    if not is_class:
        T = exact_argument(T, "T", MakeDomainError)
    if type(T) is str and T in _STRING_ALIASES:  # label: carrier-string-alias
        return CarrierType(_STRING_ALIASES[T])
    if type(T) is str and T in ALL_TYPES:
        return CarrierType(T)
    if type(T) is str:
        shown = repr(T)
    elif is_class:
        shown = type.__repr__(T)
    else:
        shown = f"a value of type {type(T).__name__}"
    raise MakeDomainError(
        f"unknown carrier type {shown}; expected one of {', '.join(ALL_TYPES)}", parameter="T"
    )


def infer_type(value) -> CarrierType:
    """The carrier type OpenDP infers for a Python value: int → i32, float → f64.

    NumPy scalars are recognised by their exact type; a ``timedelta64`` (registered by NumPy as
    an integer type) and a subclass of a NumPy scalar type have no carrier type."""
    kind = type(value)
    if type_is(value, bool, np.bool_):  # label: infer-bool
        return CarrierType("bool")
    if type_is(value, *NUMPY_INTEGER_TYPES):
        for alias, name in _NUMPY_ALIASES.items():  # np.longlong → i128, as T=np.longlong
            if kind is alias:  # label: infer-numpy-alias
                return CarrierType(name)
        dtype = str(value.dtype)  # label: infer-numpy-int
        return CarrierType(dtype.replace("uint", "u").replace("int", "i"))
    if issubclass(kind, int) and not issubclass(kind, np.generic):  # label: infer-int
        return CarrierType("i32")
    if kind is np.float32:
        return CarrierType("f32")
    if type_is(value, np.float16, np.float64, np.longdouble) or (
        issubclass(kind, float) and not issubclass(kind, np.generic)
    ):  # label: infer-float
        return CarrierType("f64")
    if kind is np.str_ or (issubclass(kind, str) and not issubclass(kind, np.generic)):
        return CarrierType("String")
    raise MakeDomainError(f"cannot infer a carrier type from {kind.__name__}", parameter="T")


# proof: end descriptors
