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

from .errors import MakeDomainError

__all__ = [
    "CarrierType",
    "carrier",
    "infer_type",
    "INTEGER_TYPES",
    "FLOAT_TYPES",
    "NUMERIC_TYPES",
]

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


@dataclass(frozen=True)
class CarrierType:
    """A named carrier type with its exact value set."""

    name: str

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
        return int(self.name[1:])

    @property
    def is_signed(self) -> bool:
        return self.name.startswith("i")

    @property
    def min(self) -> int | float:
        if self.is_float:
            return -self.max
        if not self.is_signed:
            return 0
        return -(1 << (self.bits - 1))

    @property
    def max(self) -> int | float:
        if self.name == "f64":
            return 1.7976931348623157e308
        if self.name == "f32":
            return float(np.finfo(np.float32).max)
        if self.is_signed:
            return (1 << (self.bits - 1)) - 1
        return (1 << self.bits) - 1

    @property
    def mantissa_bits(self) -> int:
        """Explicitly stored mantissa bits (52 for f64, 23 for f32)."""
        return {"f64": 52, "f32": 23}[self.name]

    @property
    def numpy_dtype(self) -> np.dtype:
        """The numpy dtype holding this type exactly (object for 128-bit, bool and String)."""
        return np.dtype(_NUMPY_DTYPES.get(self.name, "O"))

    def contains(self, value) -> bool:
        """Is ``value`` exactly a value of this carrier type?

        Python values must be of the exact built-in type: a subclass (an ``IntEnum``, a
        ``str`` with its own ``__eq__``) could compare differently from the value it holds.
        """
        if self.name == "bool":
            return type(value) in (bool, np.bool_)
        if self.name == "String":
            return type(value) is str
        if self.is_integer:
            if not (type(value) is int or isinstance(value, np.integer)):
                return False
            return self.min <= int(value) <= self.max
        # floats: a numpy float32 scalar is an f32 value, never an f64 one (numpy compares
        # it with Python floats in binary32, so admitting it would change comparisons)
        if isinstance(value, np.floating):
            if value.dtype == np.float32 and self.name == "f32":
                return True
            if value.dtype != np.float64:
                return False
            value = float(value)
        elif type(value) is not float:
            return False
        if self.name == "f64" or math.isnan(value) or math.isinf(value):
            return True
        return float(np.float32(value)) == value

    def __str__(self) -> str:
        return self.name


def carrier(T) -> CarrierType:
    """Normalise a type descriptor (``"f64"``, ``float``, ``CarrierType``) to a :class:`CarrierType`."""
    if isinstance(T, CarrierType):
        return T
    if T in _PYTHON_ALIASES:
        return CarrierType(_PYTHON_ALIASES[T])
    if isinstance(T, str) and T in ALL_TYPES:
        return CarrierType(T)
    raise MakeDomainError(
        f"unknown carrier type {T!r}; expected one of {', '.join(ALL_TYPES)}", parameter="T"
    )


def infer_type(value) -> CarrierType:
    """The carrier type OpenDP infers for a Python value: int → i32, float → f64."""
    if isinstance(value, (bool, np.bool_)):
        return CarrierType("bool")
    if isinstance(value, np.integer):
        return CarrierType(str(value.dtype).replace("uint", "u").replace("int", "i"))
    if isinstance(value, int):
        return CarrierType("i32")
    if isinstance(value, np.float32):
        return CarrierType("f32")
    if isinstance(value, (float, np.floating)):
        return CarrierType("f64")
    if isinstance(value, str):
        return CarrierType("String")
    raise MakeDomainError(f"cannot infer a carrier type from {type(value).__name__}", parameter="T")
