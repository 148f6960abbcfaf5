"""The boundary: every value a user hands certdp becomes an exact Python value, or is refused.

Guarantee (conversion.tex): :func:`exact_scalar` returns a value of one of the exact built-in
types ``bool``, ``int``, ``float``, ``Fraction`` or ``str`` that denotes *exactly* the number
(or truth value, or text) its argument denotes, or raises a :class:`~certdp.core.errors.DPError`
naming the parameter.  No fixed-width integer, no NumPy float and no ``Decimal`` survives it,
so the exact arithmetic behind every map only ever sees Python's arbitrary-precision integers,
``Fraction`` and IEEE binary64 ``float``.

What each foreign type means:

* NumPy integers (``int8`` ... ``uint64``) and ``bool_`` become ``int`` and ``bool``.
* NumPy ``float16``, ``float32`` and ``float64`` become the ``float`` of the same value (every
  such value is a binary64 value).  ``longdouble`` becomes that ``float`` when the value is a
  binary64 value, and otherwise the exact ``Fraction`` (also beyond the binary64 range); NaN
  and infinities stay floats.
* ``decimal.Decimal`` becomes the exact ``Fraction`` of its finite value; NaN and infinities
  become the float NaN and infinities, which the parameter's own check then refuses.
* An exact value whose integer (or a ``Fraction``'s numerator or denominator) has more than
  :data:`MAX_EXACT_BITS` bits is refused, and so is a ``Decimal`` of more than
  :data:`MAX_DECIMAL_DIGITS` digits and exponent: every number certdp computes with is thus
  small enough to print and to compute on in bounded time.
* Other rationals (``numbers.Rational``) become the exact ``Fraction``; so does a ``Fraction``
  whose numerator or denominator is a NumPy integer (``Fraction`` keeps such fields, and its
  arithmetic on them would wrap around), and one made without its constructor
  (``object.__new__``) whose ``int`` fields are unreduced or have a negative denominator
  (:func:`~certdp.core.exact_type.is_exact_fraction` tells an exact one); such a ``Fraction``
  with a denominator 0, other fields or none, or a field of more than :data:`MAX_EXACT_BITS`
  bits (tested before anything is reduced, so a huge one costs no ``gcd``), is refused; so is
  a rational whose ``numerator`` or ``denominator`` raises when read.
* A 0-d ``numpy.ndarray`` is its one element.
* ``bool`` is a truth value, never the number 0 or 1: numeric parameters refuse it.
* Subclasses of ``int``, ``float`` and ``str`` (an ``IntEnum``, say), complex numbers, bytes,
  masked arrays and other ``ndarray`` subclasses, dates and time intervals (``timedelta64``,
  although NumPy registers it as an integer type), and arrays where a scalar is expected are
  refused.
* An object whose class is exactly ``dp.RuntimeType`` (registered by ``core/typenames.py``;
  no subclass) given as an argument is the plain ``str`` it prints, checked then as that
  string; printing that fails or gives a subclass of ``str`` is refused.
"""

from __future__ import annotations

import decimal
import math
import numbers
from fractions import Fraction

import numpy as np

from .errors import DPError, FailedCastError
from .exact_type import fraction_field_bits, is_exact_fraction, type_ids, type_is, types_are

__all__ = [
    "exact_scalar",
    "exact_argument",
    "exact_arguments",
    "is_exact",
    "is_foreign_number",
    "register_type_name_class",
    "type_name_text",
]

# proof: begin exact-scalar
#: The exact built-in types a converted value has.
EXACT_TYPES = (bool, int, float, Fraction, str)

#: The NumPy scalar types, by exact type: a subclass of one of them (which may override
#: ``__int__``, ``__float__`` or ``item``) or an object faking its ``__class__`` is none of them.
NUMPY_INTEGER_TYPES = frozenset(np.dtype(code).type for code in "bBhHiIlLqQ")  # label: numpy-ints
NUMPY_BINARY64_FLOATS = frozenset((np.float16, np.float32, np.float64))  # label: binary64-floats
NUMPY_FLOAT_TYPES = NUMPY_BINARY64_FLOATS | {np.longdouble}
#: The same classes by ``id``: ``id(type(x)) in ...`` compares integers, never classes.
NUMPY_INTEGER_TYPE_IDS = type_ids(*NUMPY_INTEGER_TYPES)  # label: numpy-int-ids
NUMPY_BINARY64_FLOAT_IDS = type_ids(*NUMPY_BINARY64_FLOATS)  # label: binary64-float-ids

#: The most bits an exact integer (or a ``Fraction``'s numerator or denominator) may have:
#: every finite binary64 value needs at most 1075, every integer carrier at most 128; below
#: 14000 bits an integer has fewer than 4300 decimal digits, Python's default limit on
#: printing one.
MAX_EXACT_BITS = 14000  # label: max-bits
#: The most digits plus exponent magnitude a ``Decimal`` may have: ``10^4200 < 2^14000``.
MAX_DECIMAL_DIGITS = 4200


def exact_scalar(value, parameter: str, error: type[DPError] = FailedCastError):
    """``value`` as an exact built-in value (see the module docstring); ``error`` otherwise."""
    exact = _exact_value(value, parameter, error)
    if oversized(exact):  # label: size-cap
        raise error(
            f"a number whose exact value needs more than {MAX_EXACT_BITS} bits is refused",
            parameter=parameter,
        )
    return exact


def oversized(value) -> bool:
    """Does the exact ``value`` (an ``int`` or ``Fraction``) need more than
    :data:`MAX_EXACT_BITS` bits?"""
    kind = type(value)
    if kind is int:
        return value.bit_length() > MAX_EXACT_BITS
    if kind is Fraction:
        return max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_EXACT_BITS
    return False


def _exact_value(value, parameter: str, error: type[DPError]):
    kind = type(value)
    if is_exact(value):  # label: exact-type
        return value
    if kind is Fraction:  # label: fraction-fields
        return _exact_fraction(value, parameter, error)
    if kind is np.ndarray and value.ndim == 0:  # label: zero-d
        element = value[()]
        if issubclass(type(element), np.ndarray):  # label: zero-d-nested
            raise error("an array inside a 0-d array is not a scalar", parameter=parameter)
        return _exact_value(element, parameter, error)
    if kind is np.bool_:  # label: numpy-bool
        return bool(value)
    if id(kind) in NUMPY_INTEGER_TYPE_IDS:
        return int(value)  # label: numpy-int
    if id(kind) in NUMPY_BINARY64_FLOAT_IDS:  # label: numpy-float
        return float(value)
    if kind is np.longdouble:  # label: longdouble
        return _exact_longdouble(value)
    if kind is np.str_:
        return str(value)
    if kind is decimal.Decimal:  # label: decimal
        return _exact_decimal(value, parameter, error)
    if issubclass(kind, numbers.Rational) and not issubclass(kind, (int, np.generic)):
        try:
            numerator, denominator = value.numerator, value.denominator  # label: rational
        except Exception:  # any failure of a user-defined rational's properties
            raise error(  # label: rational-unreadable
                f"a {kind.__name__} whose numerator or denominator cannot be read is refused",
                parameter=parameter,
            ) from None
        if type(numerator) is int and type(denominator) is int and denominator != 0:
            return Fraction(numerator, denominator)
    raise error(f"{_refusal(value)}", parameter=parameter)  # label: refuse


def is_exact(value) -> bool:
    """Is ``value`` already exact: of one of the exact types, and a ``Fraction`` only when its
    stored ``int`` fields have at most :data:`MAX_EXACT_BITS` bits (tested first, in constant
    time, so no ``gcd`` runs on larger ones) and :func:`is_exact_fraction` holds?"""
    if type(value) is Fraction:  # label: exact-fraction-test
        small = fraction_field_bits(value) <= MAX_EXACT_BITS  # label: oversized-read
        return small and is_exact_fraction(value)
    return type_is(value, *EXACT_TYPES)


def _exact_fraction(value: Fraction, parameter: str, error: type[DPError]) -> Fraction:
    try:
        fields = (value.numerator, value.denominator)
    except AttributeError:  # label: fraction-unset
        message = "a Fraction without a numerator or denominator is refused"
        raise error(message, parameter=parameter) from None
    if all(type(field) is int or id(type(field)) in NUMPY_INTEGER_TYPE_IDS for field in fields):
        numerator, denominator = int(fields[0]), int(fields[1])
        # the size test on the two ints read, before Fraction reduces them (a gcd)
        if max(numerator.bit_length(), denominator.bit_length()) > MAX_EXACT_BITS:
            raise error(  # label: fraction-size
                f"a Fraction whose numerator or denominator has more than {MAX_EXACT_BITS} "
                "bits is refused",
                parameter=parameter,
            )
        if denominator == 0:  # label: fraction-zero
            raise error("a Fraction whose denominator is 0 is refused", parameter=parameter)
        return Fraction(numerator, denominator)
    raise error(
        "a Fraction whose numerator and denominator are not plain integers is refused",
        parameter=parameter,
    )


def _exact_longdouble(value: np.longdouble):
    if not np.isfinite(value):
        return float(value)
    numerator, denominator = value.as_integer_ratio()
    exact = Fraction(numerator, denominator)
    as_float = float(value)  # beyond the binary64 range: an infinity, never equal to exact
    if math.isfinite(as_float) and Fraction(as_float) == exact:  # label: longdouble-float
        return as_float
    return exact  # label: longdouble-fraction


def _exact_decimal(value: decimal.Decimal, parameter: str, error: type[DPError]):
    if value.is_nan():
        return math.nan
    if value.is_infinite():
        return -math.inf if value.is_signed() else math.inf
    _, digits, exponent = value.as_tuple()
    if len(digits) + abs(exponent) > MAX_DECIMAL_DIGITS:  # label: decimal-size
        raise error(
            f"a Decimal with more than {MAX_DECIMAL_DIGITS} digits and exponent is refused",
            parameter=parameter,
        )
    return Fraction(value)


# proof: end exact-scalar


# proof: begin exact-argument
def _refusal(value) -> str:
    kind = type(value)
    name = kind.__name__
    if issubclass(kind, np.ndarray):
        if kind is np.ndarray:
            return f"expected a scalar, got a {value.ndim}-d array"
        # np.ma (whose first use imports numpy.ma) is looked at only for an ndarray subclass
        if issubclass(kind, np.ma.MaskedArray):  # label: refusal-masked
            return "a masked array is refused: its hidden entries would still be computed on"
        return f"a {name} (an ndarray subclass) is refused; pass a plain numpy.ndarray"
    if issubclass(kind, (bytes, bytearray, memoryview)):
        return f"{name} is refused (bytes are never decoded): pass a str, int or float as asked"
    if issubclass(kind, (int, float, str)):
        base = next(base for base in (int, float, str) if issubclass(kind, base))
        return f"must be a plain {base.__name__}, not the subclass {name}"  # label: subclass
    if issubclass(kind, (complex, np.complexfloating)):
        return "complex numbers are not supported"
    if issubclass(kind, (np.timedelta64, np.datetime64)):
        return f"a {name} (a time, not a number) is refused"
    if issubclass(kind, np.generic):
        return f"a {name} (a subclass of a NumPy scalar type) is refused"  # label: numpy-subclass
    return f"cannot be converted exactly: got a value of type {name}"


def is_foreign_number(value) -> bool:
    """Is ``value`` a number of a type the boundary converts (NumPy, ``Decimal``, rational)?

    The test is on ``type(value)``, never on ``value.__class__``, which an object may fake."""
    return not is_exact(value) and _foreign_class(value)


def _foreign_class(value) -> bool:
    """Is the class of ``value`` one the boundary converts, exact or not?"""
    kind = type(value)
    return issubclass(kind, (np.generic, decimal.Decimal, numbers.Number)) or (  # label: foreign
        kind is np.ndarray and value.ndim == 0
    )


#: How deeply tuples and lists may nest in a constructor argument.  No constructor takes more
#: than a few levels; a list that contains itself would nest without end.
MAX_ARGUMENT_NESTING = 32

#: Item types that :func:`exact_argument` returns unchanged whatever their value (exact and
#: never oversized), so a tuple or list of only these is its own conversion.
PLAIN_ITEM_TYPES = (type(None), bool, float, str)  # label: plain-items


#: The classes whose objects stand for the type name they print (``dp.RuntimeType``, which
#: ``core/typenames.py`` registers when it is imported).  Nothing about these classes is
#: relied on: :func:`type_name_text` takes an object's printed text and checks it.
TYPE_NAME_CLASSES: list[type] = []  # label: name-classes


def register_type_name_class(kind: type) -> None:
    """Have objects of exactly the class ``kind`` read as the type name they print."""
    TYPE_NAME_CLASSES.append(kind)  # label: name-register


def type_name_text(value, parameter: str, error: type[DPError] = FailedCastError):
    """``str(value)`` when the class of ``value`` is exactly one of :data:`TYPE_NAME_CLASSES`
    (a ``dp.RuntimeType``), and then only a plain ``str``; ``value`` itself otherwise.
    Printing that fails, or gives a subclass of ``str``, raises ``error`` naming
    ``parameter``."""
    if not type_is(value, *TYPE_NAME_CLASSES):  # label: name-class
        return value
    try:
        text = str(value)  # label: name-print
    except Exception as failure:  # any failure of its (or its arguments') __str__
        raise error(
            f"a {type(value).__name__} that cannot be printed as a type name is refused",
            parameter=parameter,
        ) from failure
    if type(text) is not str:  # label: name-plain
        raise error(
            f"a {type(value).__name__} must print as a plain str to name a type",
            parameter=parameter,
        )
    return text  # label: name-text


def exact_argument(
    value, parameter: str, error: type[DPError] = FailedCastError, *, _depth: int = 0
):
    """A constructor argument with every scalar in it made exact (pairs and lists included).

    A ``dp.RuntimeType`` given for a type parameter (a name beginning with a capital, as OpenDP
    names them: ``T``, ``TO``, ``MO``) becomes the type name it prints (:func:`type_name_text`);
    for any other parameter it is refused.
    Objects of certdp's own model (domains, metrics, measures, transformations), type names,
    ``None`` and arrays of one or more dimensions pass unchanged: their constructor checks them.
    Anything an exact scalar is refused for (bytes, masked arrays, subclasses of built-in
    numbers and of NumPy scalars) is refused here too, and so are tuples and lists nested more
    than :data:`MAX_ARGUMENT_NESTING` deep (a list that contains itself, for one).
    """
    exact = is_exact(value)
    if value is None or (exact and not oversized(value)):  # label: arg-exact
        return value
    if type_is(value, tuple, list):  # label: arg-sequence
        if _depth >= MAX_ARGUMENT_NESTING:  # label: arg-nesting
            raise error(
                f"tuples and lists nested more than {MAX_ARGUMENT_NESTING} deep (or containing "
                "themselves) are refused",
                parameter=parameter,
            )
        # one snapshot of the items, in order, by the built-in class itself
        items = tuple(value)  # label: arg-snapshot
        if types_are(items, *PLAIN_ITEM_TYPES) or (  # label: arg-kinds
            types_are(items, int)
            and max(items).bit_length() <= MAX_EXACT_BITS
            and min(items).bit_length() <= MAX_EXACT_BITS
        ):  # every item is returned unchanged by the per-item call  # label: arg-bulk
            return list(items) if type(value) is list else items
        rebuild = list if type(value) is list else tuple
        return rebuild(
            exact_argument(item, parameter, error, _depth=_depth + 1) for item in items
        )  # label: arg-items
    if type(value) is np.ndarray and value.ndim > 0:  # label: arg-array
        return value
    if exact or _foreign_class(value):  # label: arg-foreign
        return exact_scalar(value, parameter, error)
    refused = (np.ndarray, bytes, bytearray, memoryview, int, float, str, complex)
    if issubclass(type(value), refused):
        raise error(_refusal(value), parameter=parameter)  # label: arg-refuse
    if type_is(value, *TYPE_NAME_CLASSES):  # a dp.RuntimeType: the name it prints
        if not "A" <= parameter[:1] <= "Z":  # label: arg-type-parameter
            raise error(
                f"a {type(value).__name__} names a type; only a type parameter (a name "
                "beginning with a capital, such as T or TO) takes one",
                parameter=parameter,
            )
        return type_name_text(value, parameter, error)  # label: arg-runtime-type
    return value  # label: arg-pass


def exact_arguments(arguments: dict, error: type[DPError] = FailedCastError) -> dict:
    """:func:`exact_argument` applied to each named argument of a call."""
    return {name: exact_argument(value, name, error) for name, value in arguments.items()}


# proof: end exact-argument
