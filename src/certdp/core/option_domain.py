"""``option_domain``: a domain of values that may be missing.

Guarantee (option_domain.tex): the members of ``option_domain(D)`` are ``None`` and the members
of ``D``; ``admit`` hands a function ``None`` for ``None`` and what ``D.admit`` hands it
otherwise.  As in OpenDP 0.16, ``D`` must be an ``atom_domain`` (a NaN-admitting float atom is
allowed: NaN and ``None`` are then two distinct members).
"""

from __future__ import annotations

import re
from itertools import compress, repeat
from operator import is_, is_not

from .domains import AtomDomain, Domain
from .errors import MakeDomainError, shown, type_mismatch
from .fpenv import require_ieee_environment
from .types import _STRING_ALIASES, ALL_TYPES, CarrierType

__all__ = ["OptionDomain", "option_domain"]


# proof: begin option-domain
class OptionDomain(Domain):
    """``None`` or a member of ``element_domain``."""

    def __init__(self, element_domain: AtomDomain):
        self.element_domain = element_domain
        self._span = _integer_span(element_domain)  # label: option-span

    def admit(self, value):
        if value is None:  # label: option-none
            return None
        span = self._span
        if span is not None and type(value) is int and span[0] <= value <= span[1]:
            return value  # label: option-int
        return self.element_domain.admit(value)  # label: option-element

    def admit_each(self, values) -> list:
        """``[self.admit(v) for v in values]``: for an integer element domain, C loops over one
        copy when every element is ``None`` or an exact ``int`` inside the span (one loop fewer
        when no element is ``None``; only for this class: a subclass may override ``admit``,
        which the loops would not call)."""
        span = self._span
        kind = type(values)
        if type(self) is not OptionDomain or span is None or not (kind is list or kind is tuple):
            return [self.admit(value) for value in values]  # label: each-other
        values = list(values)  # label: each-copy
        if all(map(is_, map(type, values), repeat(int))):  # label: each-no-none
            present = values
        else:
            present = list(
                compress(values, map(is_not, values, repeat(None)))
            )  # label: each-present
            if not all(map(is_, map(type, present), repeat(int))):  # label: each-types
                return [self.admit(value) for value in values]  # label: each-other-types
        if not present or (span[0] <= min(present) and max(present) <= span[1]):  # label: each-span
            return values  # label: each-ints
        return [self.admit(value) for value in values]  # label: each-element

    def _key(self) -> tuple:
        return (self.element_domain,)

    def __repr__(self) -> str:
        return f"OptionDomain({shown(self.element_domain)})"


def _integer_span(element_domain):
    """``(low, high)``: the ``int`` values an atom domain of an integer type admits unchanged
    are those in ``[low, high]`` (its type's range cut to its bounds); ``None`` for any other
    domain, and for bounds that are not a pair of exact ``int`` (only a directly built
    ``AtomDomain`` has such bounds; its own admission then decides)."""
    if type(element_domain) is not AtomDomain or type(element_domain.T) is not CarrierType:
        return None  # label: span-none
    T, bounds = element_domain.T, element_domain.bounds
    if not T.is_integer:
        return None  # label: span-not-integer
    if bounds is None:
        return (T.min, T.max)  # label: span-range
    if type(bounds) is not tuple or len(bounds) != 2 or not all(type(b) is int for b in bounds):
        return None  # label: span-odd-bounds
    return (max(T.min, bounds[0]), min(T.max, bounds[1]))  # label: span


def option_domain(element_domain, D=None) -> OptionDomain:
    """The domain whose members are ``None`` and the members of ``element_domain`` (an
    ``atom_domain``).  ``D``, when given, must be OpenDP's text ``AtomDomain<T>`` naming the
    type of ``element_domain`` (``T`` may be ``int``, ``float`` or ``str``; spaces allowed)."""
    require_ieee_environment()  # label: option-environment
    if type(element_domain) is not AtomDomain:  # label: option-atom
        raise type_mismatch(MakeDomainError)(
            f"must be an atom_domain, got {shown(element_domain)}", parameter="element_domain"
        )
    if D is not None and _described(D) != element_domain.T:
        raise type_mismatch(MakeDomainError)(  # label: option-descriptor
            f"must describe {shown(element_domain)}, got {shown(D)}", parameter="D"
        )
    return OptionDomain(element_domain)  # label: option-domain


#: OpenDP's text for the type of an atom domain, ``AtomDomain<T>``: ASCII whitespace allowed
#: around ``T`` and around the whole, ``T`` a type name (``i32``, ``String``...) or a Python
#: type's name (``int``, ``float``, ``str``, read as OpenDP reads them; core/types.py).
_DESCRIPTOR = re.compile(r"\s*AtomDomain<\s*(\w+)\s*>\s*", re.ASCII)


def _described(D):
    """The carrier type the descriptor ``D`` names, or ``None`` when it names none."""
    match = _DESCRIPTOR.fullmatch(D) if type(D) is str else None  # label: descriptor-parse
    if match is None:
        return None
    name = _STRING_ALIASES.get(match.group(1), match.group(1))  # label: descriptor-alias
    return CarrierType(name) if name in ALL_TYPES else None  # label: descriptor-type


# proof: end option-domain
