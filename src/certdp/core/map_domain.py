"""``map_domain``: dictionaries whose keys and values come from two atom domains.

Guarantee (map_domain.tex): a member is a plain ``dict`` (or a ``Counter``, ``OrderedDict`` or
``defaultdict``, read as the plain dict of its entries) whose every key is a member of the key
domain and every value a member of the value domain; :meth:`MapDomain.admit` returns a new dict
of the exact values they denote, one entry per entry of the argument.  Keys must be hashable
values compared by their meaning, so the key domain's carrier type is an integer type, ``bool``
or ``String`` (never a float: NaN is not equal to itself and ``-0.0 == 0.0``), as in OpenDP.
"""

from __future__ import annotations

import collections

from .domains import AtomDomain, Domain, refuse
from .errors import MakeDomainError, shown, type_mismatch
from .exact_type import type_is
from .fpenv import require_ieee_environment

__all__ = ["MapDomain", "map_domain"]


# proof: begin map-domain
#: The exact types read as maps: ``dict`` and the standard library's dict types
#: (``collections.Counter``, ``OrderedDict``, ``defaultdict``), read as plain dicts.
MAP_TYPES = (dict, collections.Counter, collections.OrderedDict, collections.defaultdict)


class MapDomain(Domain):
    """Dicts mapping members of ``key_domain`` to members of ``value_domain``."""

    def __init__(self, key_domain: AtomDomain, value_domain: AtomDomain):
        self.key_domain = key_domain
        self.value_domain = value_domain

    def admit(self, value):
        if not type_is(value, *MAP_TYPES):  # label: map-type
            raise refuse(
                self,
                f"type: must be a dict (or a Counter, OrderedDict or defaultdict), "
                f"got {type(value).__name__}",
            )
        entries = list(dict.items(value))  # label: map-snapshot
        admitted = {}
        for key, element in entries:
            key = self.key_domain.admit(key)  # label: map-key
            admitted[key] = self.value_domain.admit(element)  # label: map-value
        if len(admitted) != len(entries):  # label: map-distinct
            raise refuse(self, "keys: two keys denote the same value")
        return admitted

    def _key(self) -> tuple:
        return (self.key_domain, self.value_domain)

    def __repr__(self) -> str:
        return (
            f"MapDomain {{ key_domain: {shown(self.key_domain)}, "
            f"value_domain: {shown(self.value_domain)} }}"
        )


def map_domain(key_domain, value_domain) -> MapDomain:
    """The domain of dicts from ``key_domain`` (an atom domain of an integer type, ``bool`` or
    ``String``) to ``value_domain`` (an atom domain)."""
    require_ieee_environment()  # label: map-environment
    for name, domain in (("key_domain", key_domain), ("value_domain", value_domain)):
        if not issubclass(type(domain), Domain):  # label: map-arguments
            raise type_mismatch(MakeDomainError)(
                f"must be a domain, got {shown(domain)}", parameter=name
            )
        if type(domain) is not AtomDomain:  # label: map-atoms
            raise MakeDomainError(f"must be an atom_domain, got {shown(domain)}", parameter=name)
    if key_domain.T.is_float:  # label: map-hashable
        raise type_mismatch(MakeDomainError)(
            f"keys must be hashable (an integer type, bool or String), not {key_domain.T}",
            parameter="key_domain",
        )
    return MapDomain(key_domain, value_domain)  # label: map-build


# proof: end map-domain
