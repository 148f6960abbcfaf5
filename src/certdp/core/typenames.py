"""OpenDP's type names as Python values (``dp.i32``, ``dp.f64``, ``dp.String``, ``dp.Vec[...]``,
``dp.HashMap[...]``) and ``dp.RuntimeType``, the parsed form of a type name.

OpenDP code passes these where a type is expected (``T=dp.i32``).  Each atomic name is the plain
string certdp's ``T=`` parameters already take, so a name certdp supports means exactly what
the string does, and a name it does not support (``dp.isize``, ``dp.Vec[dp.i32]`` as an atom)
is refused by the parameter's own check with a typed error naming the type.  ``dp.Vec[...]``
and ``dp.HashMap[...]`` are the strings OpenDP prints (``"Vec<i32>"``, ``"HashMap<String,
i32>"``); they compare equal to the :class:`RuntimeType` OpenDP's ``Vec[...]`` returns.

:class:`RuntimeType` reads type names with the alias tables of ``core/types.py`` (``int`` is
``i32``, ``float`` ``f64``, ``str`` ``String``, NumPy scalar types by their width), as
``carrier`` reads them.  Nothing here is proven: it only names types.  A ``RuntimeType``
object is accepted wherever a type name is (for a constructor, by its type parameters: names
beginning with a capital), as the text it prints: this module registers the
class with ``core/conversion.py``, whose proven ``type_name_text`` takes and checks that text,
so no proof relies on this module.
"""

from __future__ import annotations

import typing
from types import GenericAlias

import numpy as np

from .conversion import register_type_name_class
from .errors import MakeDomainError, type_mismatch
from .types import _NUMPY_ALIASES, _PYTHON_ALIASES, _STRING_ALIASES

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
    "HashMap",
    "RuntimeType",
    "UnknownTypeException",
]

i8, i16, i32, i64, i128 = "i8", "i16", "i32", "i64", "i128"
u8, u16, u32, u64, u128 = "u8", "u16", "u32", "u64", "u128"
isize, usize = "isize", "usize"  # certdp supports usize only (64 bits), as its atoms
f32, f64 = "f32", "f64"
String = "String"


class UnknownTypeException(MakeDomainError):
    """A value names no type (OpenDP's ``UnknownTypeException``): it cannot be parsed as a type
    name, or no type can be inferred from it."""


#: The exact Python and NumPy scalar types with a type name, as OpenDP 0.16 names them.
_ELEMENTARY = {**_PYTHON_ALIASES, **_NUMPY_ALIASES}

#: The typing constructs OpenDP reads as generic types (``list[int]`` is ``Vec<i32>``).
_GENERIC_ORIGINS = {list: "Vec", dict: "HashMap", tuple: "Tuple"}


def _elementary(kind):
    """The name of the exact scalar type ``kind`` (``int`` is ``i32``), or ``None``."""
    for python_type, name in _ELEMENTARY.items():
        if kind is python_type:
            return name
    return None


#: How deeply a type name may nest (``Vec<Vec<...>>``, tuples in tuples).  OpenDP 0.16 parses
#: names until Python's recursion limit (about 249 levels of ``Vec<...>``) and then raises a
#: bare ``RecursionError``; certdp refuses deeper names with :class:`UnknownTypeException`.
MAX_TYPE_NESTING = 64

_PUNCTUATION = frozenset("<>(),")


def _tokens(text: str) -> list[str]:
    """The tokens of ``text`` in one pass: each of ``< > ( ) ,`` alone, and each name between
    them with its surrounding white space removed (an empty name is dropped)."""
    tokens, start = [], 0
    for position, character in enumerate(text):
        if character in _PUNCTUATION:
            name = text[start:position].strip()
            if name:
                tokens.append(name)
            tokens.append(character)
            start = position + 1
    name = text[start:].strip()
    if name:
        tokens.append(name)
    return tokens


def _too_deep(text: str) -> UnknownTypeException:
    return UnknownTypeException(
        f"type names nested more than {MAX_TYPE_NESTING} deep are refused, got one of "
        f"{len(text)} characters",
        parameter="type_name",
    )


#: The most characters of a refused name's ``repr`` that a refusal message repeats.
SHOWN_NAME_CHARACTERS = 100


def _shown_name(value) -> str:
    """``repr(value)`` for a refusal message, cut after :data:`SHOWN_NAME_CHARACTERS`
    characters (then followed by its full length), so a huge name gives a short message."""
    text = repr(value)
    if len(text) <= SHOWN_NAME_CHARACTERS:
        return text
    return f"{text[:SHOWN_NAME_CHARACTERS]}... ({len(text)} characters)"


def _parse_tokens(text: str):
    """The type ``text`` names (see :meth:`RuntimeType.parse`), read in time linear in its
    length with an explicit stack (no recursion, so no depth reaches Python's limit)."""
    tokens = _tokens(text)
    refused = UnknownTypeException(
        f"unable to parse type: {_shown_name(text)}", parameter="type_name"
    )
    stack = []  # frames [origin, arguments, closing character]
    value, have_value, index = None, False, 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if not have_value:
            following = tokens[index] if index < len(tokens) else None
            if token == "(" or (token not in _PUNCTUATION and following == "<"):
                if len(stack) >= MAX_TYPE_NESTING:
                    raise _too_deep(text)
                origin = "Tuple" if token == "(" else token
                stack.append([origin, [], ")" if token == "(" else ">"])
                index += 0 if token == "(" else 1  # the "<" after a name is read with it
                if index < len(tokens) and tokens[index] == stack[-1][2]:  # no arguments
                    index += 1
                    origin, arguments, _ = stack.pop()
                    value, have_value = RuntimeType(origin, arguments), True
                continue
            if token in _PUNCTUATION:
                raise refused
            value, have_value = _STRING_ALIASES.get(token, token), True
            continue
        if token == "," and stack:
            stack[-1][1].append(value)
            have_value = False
        elif stack and token == stack[-1][2]:
            origin, arguments, _ = stack.pop()
            value = RuntimeType(origin, [*arguments, value])
        else:
            raise refused
    if stack or not have_value:
        raise refused
    return value


class RuntimeType:
    """A generic type name: ``origin`` (``"Vec"``, ``"HashMap"``, ``"Option"``, ``"Tuple"``,
    ...) applied to ``args`` (type names or ``RuntimeType``\\ s), as OpenDP 0.16's
    ``dp.RuntimeType``.  It equals another ``RuntimeType`` with the same origin and arguments,
    and a string that parses to it (``RuntimeType.parse("Vec<int>") == "Vec<i32>"``); it
    hashes as its string, and prints as OpenDP prints it (a tuple as ``(i32, f64)``)."""

    def __init__(self, origin, args=None):
        if type(origin) is not str:
            raise UnknownTypeException(
                f"must be a string, got {type(origin).__name__}", parameter="origin"
            )
        self.origin = origin
        self.args = list(args or [])

    def __eq__(self, other):
        if isinstance(other, str):
            try:
                other = RuntimeType.parse(other)
            except UnknownTypeException:
                return False
        if not isinstance(other, RuntimeType):
            return False
        return self.origin == other.origin and self.args == other.args

    def __ne__(self, other):
        return not self == other

    def __hash__(self) -> int:
        return hash(str(self))

    def __repr__(self) -> str:
        if self.origin == "Tuple":
            return f"({', '.join(map(str, self.args))})"
        if self.args:
            return f"{self.origin}<{', '.join(map(str, self.args))}>"
        return self.origin

    __str__ = __repr__

    @classmethod
    def parse(cls, type_name, generics=None, *, _depth: int = 0):
        """The normal form of the type descriptor ``type_name``: a string for an atomic type
        (``int`` and ``"int"`` give ``"i32"``, ``np.float32`` gives ``"f32"``, an unknown name
        itself), a ``RuntimeType`` for a generic one (``"Vec<i32>"``, ``list[int]``,
        ``dict[str, int]``, ``"(i32, f64)"``, a tuple of descriptors).  Anything else, and a
        name nested more than :data:`MAX_TYPE_NESTING` deep, raises
        :class:`UnknownTypeException` naming ``type_name``; a string is read in linear time.  ``generics`` is accepted for
        OpenDP's signature and must be empty: certdp has no generic placeholders."""
        if generics:
            raise UnknownTypeException(
                "certdp parses no generic placeholders; pass no generics", parameter="generics"
            )
        if isinstance(type_name, RuntimeType):
            return type_name
        if _depth >= MAX_TYPE_NESTING and type(type_name) is not str:
            raise _too_deep(repr(type_name))
        if isinstance(type_name, (GenericAlias, typing._GenericAlias)):
            origin = typing.get_origin(type_name)
            args = [cls.parse(arg, _depth=_depth + 1) for arg in typing.get_args(type_name)]
            name = _GENERIC_ORIGINS.get(origin)
            if name is None:
                raise UnknownTypeException(
                    f"unable to parse type: {_shown_name(type_name)}", parameter="type_name"
                )
            return RuntimeType(name, args)
        if type(type_name) is tuple:
            return RuntimeType("Tuple", [cls.parse(item, _depth=_depth + 1) for item in type_name])
        if type(type_name) is str:
            return _parse_tokens(type_name.strip())
        name = _elementary(type_name)
        if name is not None:
            return name
        raise UnknownTypeException(
            f"unable to parse type: {_shown_name(type_name)}", parameter="type_name"
        )

    @classmethod
    def infer(cls, public_example, py_object: bool = False):
        """The type OpenDP 0.16 infers for ``public_example``: its exact scalar type's name
        (``int`` ``"i32"``, ``float`` ``"f64"``, ``np.int8`` ``"i8"``), ``Vec<T>`` for a list of
        values of one type ``T``, ``HashMap<K, V>`` for a dict (every key of type ``K``, every
        value of type ``V``), a tuple's item types, ``Vec<T>`` for a 1-d NumPy array of a
        named dtype and a 0-d array's item's type; a metric's type; ``"CallbackFn"`` for a
        callable.  An empty list or dict, ``None`` and any other value raise
        :class:`UnknownTypeException` (``"ExtrinsicObject"`` with ``py_object``); items of
        several types raise it as a ``TypeError``, as in OpenDP."""
        name = _elementary(type(public_example))
        if name is not None:
            return name
        from .metrics import Metric  # noqa: PLC0415  (metrics import this module's package)

        if isinstance(public_example, Metric):
            return cls.parse(public_example.type)
        if type(public_example) is tuple:
            return RuntimeType("Tuple", [cls.infer(item, py_object) for item in public_example])
        if type(public_example) is list:
            return RuntimeType("Vec", [cls._infer_one(public_example, py_object)])
        if type(public_example) is np.ndarray:
            return cls._infer_array(public_example, py_object)
        if type(public_example) is dict:
            keys = cls._infer_one(public_example.keys(), py_object)
            return RuntimeType(
                "HashMap", [keys, cls._infer_one(public_example.values(), py_object)]
            )
        if public_example is None:
            raise UnknownTypeException(
                "the type of an Option cannot be inferred from None", parameter="public_example"
            )
        if callable(public_example):
            return "CallbackFn"
        if py_object:
            return "ExtrinsicObject"
        raise UnknownTypeException(
            f"cannot infer a type from a {type(public_example).__name__}",
            parameter="public_example",
        )

    @classmethod
    def _infer_one(cls, values, py_object: bool):
        """The one type of all ``values`` (refused when empty or of several types)."""
        found = []
        for value in values:
            inferred = cls.infer(value, py_object)
            if inferred not in found:
                found.append(inferred)
        if not found:
            raise UnknownTypeException(
                "cannot infer an element type when empty", parameter="public_example"
            )
        if len(found) == 1:
            return found[0]
        if py_object:
            return "ExtrinsicObject"
        raise type_mismatch(UnknownTypeException)(
            f"elements must be homogeneously typed, found {', '.join(map(str, found))}",
            parameter="public_example",
        )

    @classmethod
    def _infer_array(cls, array: np.ndarray, py_object: bool):
        if array.ndim == 0:
            return cls.infer(array.item(), py_object)
        if array.ndim == 1:
            name = _elementary(array.dtype.type)
            if name is None:
                raise UnknownTypeException(
                    f"no type name for an array of dtype {array.dtype}",
                    parameter="public_example",
                )
            return RuntimeType("Vec", [name])
        raise UnknownTypeException(
            f"arrays of more than one axis are not supported, got {array.ndim}",
            parameter="public_example",
        )

    @classmethod
    def parse_or_infer(cls, type_name=None, public_example=None, generics=None):
        """``parse(type_name)`` if ``type_name`` is given, else ``infer(public_example)``."""
        if type_name is not None:
            return cls.parse(type_name, generics)
        if public_example is not None:
            return cls.infer(public_example)
        raise UnknownTypeException(
            "either type_name or public_example must be passed", parameter="type_name"
        )


# every front door (constructor arguments, domain_of, metric_of, space_of, new_function's TO)
# reads a RuntimeType as the text it prints, checked by core/conversion's type_name_text
register_type_name_class(RuntimeType)


def _type_name(item) -> str:
    """``item`` as a type name, read as :meth:`RuntimeType.parse` reads it (``int`` is
    ``"i32"``, ``list[int]`` ``"Vec<i32>"``); refused naming ``T``."""
    try:
        return str(RuntimeType.parse(item))
    except UnknownTypeException:
        raise MakeDomainError(
            f"cannot name a type with {item!r}: give a type name such as dp.i32 or a Python type",
            parameter="T",
        ) from None


class _Carrier:
    """``Origin[T, ...]``: the name ``"Origin<T, ...>"`` of a generic type, as OpenDP spells it
    (``Vec[int]`` is ``"Vec<i32>"``, ``HashMap[str, int]`` ``"HashMap<String, i32>"``)."""

    def __init__(self, origin: str):
        self._origin = origin

    def __getitem__(self, items) -> str:
        items = items if type(items) is tuple else (items,)
        if not items:
            raise MakeDomainError(f"{self._origin} needs a type argument", parameter="T")
        return f"{self._origin}<{', '.join(_type_name(item) for item in items)}>"

    def __repr__(self) -> str:
        return self._origin

    __str__ = __repr__


Vec = _Carrier("Vec")
HashMap = _Carrier("HashMap")
