"""Exact-type tests by identity, never by ``==``.

Guarantee (exact_type.tex, lemma "exact type"): :func:`type_is` is true exactly when the class
of the value *is* one of the given classes, and :func:`types_are` exactly when that holds for
every item.  Neither calls a method of the value, the items, their classes or their metaclasses,
so a subclass whose metaclass makes it compare or hash equal to a built-in class is never taken
for that class (``type(x) in (int, float)`` and ``set(map(type, xs)) <= {...}`` would be).
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import repeat
from operator import attrgetter, is_

__all__ = [
    "type_is",
    "types_are",
    "type_ids",
    "kind_ids",
    "is_exact_fraction",
    "fraction_field_bits",
]


# proof: begin exact-type
def type_is(value, *types) -> bool:
    """Is the class of ``value`` one of ``types`` itself (object identity)?"""
    kind = type(value)  # label: type-is-kind
    for candidate in types:
        if kind is candidate:  # label: type-is-identity
            return True
    return False


def type_ids(*types) -> frozenset:
    """The ``id`` of each class in ``types``: a set tested with ``id(type(x)) in ...``."""
    return frozenset(map(id, types))  # label: type-ids


def kind_ids(values) -> set:
    """The ``id`` of the class of each item of ``values``: compared with :func:`type_ids` by
    ``<=`` or ``==``, integers are compared, never classes."""
    return set(map(id, map(type, values)))  # label: kind-ids


def types_are(values, *types) -> bool:
    """Is the class of every item of ``values`` one of ``types`` itself?  No class is compared
    or hashed by its own (or its metaclass's) methods, and none merges with another."""
    # one immutable snapshot (a tuple is its own snapshot): no item read below can be
    # replaced between two reads, by another thread or by code a collection runs
    values = tuple(values)  # label: types-are-snapshot
    if not values:
        return True  # label: types-are-empty
    first = type(values[0])  # the first item's class, read once
    if not any(map(is_, repeat(first, len(types)), types)):  # label: types-are-first
        return False
    if all(map(is_, map(type, values), repeat(first))):  # label: types-are-same
        return True
    return kind_ids(values) <= type_ids(*types)  # label: types-are-ids


# proof: end exact-type


# proof: begin exact-fraction
def is_exact_fraction(value) -> bool:
    """Is ``value`` a ``Fraction`` itself holding what its constructor stores: an ``int``
    numerator and a positive ``int`` denominator with no common factor?  (A ``Fraction`` keeps
    NumPy integer fields as given, and its arithmetic would then wrap around; one made with
    ``object.__new__`` may hold any fields, or none, and its equality compares the stored
    fields.)  Reads no attribute of a value of another class and raises nothing."""
    if type(value) is not Fraction:  # label: fraction-class
        return False
    try:
        numerator, denominator = value.numerator, value.denominator  # label: fraction-read
    except AttributeError:  # made without its constructor, a field never set
        return False
    return (
        type(numerator) is int
        and type(denominator) is int
        and denominator > 0
        and math.gcd(numerator, denominator) == 1  # label: fraction-reduced
    )


# proof: end exact-fraction


# proof: begin field-bits
_NUMERATOR, _DENOMINATOR = attrgetter("numerator"), attrgetter("denominator")


def fraction_field_bits(value: Fraction) -> int:
    """The larger bit length of the stored fields of the ``Fraction`` ``value`` (of that class
    itself) whose class is ``int`` itself, each field read on its own (one never set counts
    0).  Constant time (no ``gcd``: the fields need not be in lowest terms); raises nothing."""
    bits = 0
    for read in (_NUMERATOR, _DENOMINATOR):
        try:
            field = read(value)  # label: field-bits-read
        except AttributeError:  # made without its constructor, this field never set
            continue
        if type(field) is int:  # label: field-bits-int
            bits = max(bits, field.bit_length())
    return bits


# proof: end field-bits
