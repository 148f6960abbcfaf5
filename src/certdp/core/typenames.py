"""OpenDP's type names as Python values (``dp.i32``, ``dp.f64``, ``dp.String``, ``dp.Vec[...]``).

OpenDP code passes these where a type is expected (``T=dp.i32``).  Each atomic name is the plain
string certdp's ``T=`` parameters already take, so a name certdp supports means exactly what
the string does, and a name it does not support (``dp.isize``, ``dp.Vec[dp.i32]`` as an atom)
is refused by the parameter's own check with a typed error naming the type.
"""

from __future__ import annotations

from .errors import MakeDomainError
from .types import _PYTHON_ALIASES

__all__ = [
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "f32",
    "f64",
    "String",
    "Vec",
]

i8, i16, i32, i64, i128 = "i8", "i16", "i32", "i64", "i128"
u8, u16, u32, u64, u128 = "u8", "u16", "u32", "u64", "u128"
isize, usize = "isize", "usize"  # certdp supports usize only (64 bits), as its atoms
f32, f64 = "f32", "f64"
String = "String"


def _type_name(item) -> str:
    """``item`` as a type name: a string as given, a Python type by OpenDP's reading (the
    alias table ``carrier`` reads, core/types.py)."""
    for python_type, name in _PYTHON_ALIASES.items():
        if item is python_type:
            return name
    if type(item) is str:
        return item
    raise MakeDomainError(
        f"cannot name a type with {item!r}: give a type name such as dp.i32 or a Python type",
        parameter="T",
    )


class _Vec:
    """``Vec[T]``: the name ``"Vec<T>"`` of a vector type, as OpenDP spells it."""

    def __getitem__(self, items) -> str:
        items = items if type(items) is tuple else (items,)
        if not items:
            raise MakeDomainError("Vec needs an element type", parameter="T")
        return f"Vec<{', '.join(_type_name(item) for item in items)}>"

    def __repr__(self) -> str:
        return "Vec"

    __str__ = __repr__


Vec = _Vec()
