"""Is a measurement's space the same as a composition's?  The one check every compositor uses.

Guarantee (compose.tex, lemma "same space"): :func:`same_space` returns ``True`` only when the
two objects have identical exact types at every level, their structure read with the functions
of the first object's classes (never a method looked up on the second object), every leaf of
an exact built-in type (or a carrier type, compared by its exact-``str`` name), and never raises.
"""

from __future__ import annotations

from fractions import Fraction

from certdp.core.domains import Domain
from certdp.core.exact_type import type_is
from certdp.core.measures import ApproximateDivergence, Measure
from certdp.core.metrics import Metric
from certdp.core.types import CarrierType

__all__ = ["LEAF_TYPES", "MAX_DEPTH", "same_space"]


# proof: begin same
#: How deep :func:`same_space` descends into nested domains, metrics, measures and tuples.
MAX_DEPTH = 32
#: The leaf types compared with ``==``: built-in types whose ``==`` no instance can redefine.
LEAF_TYPES = (str, bytes, int, float, Fraction, bool, type(None))


def same_space(ours, theirs) -> bool:
    """Is ``theirs`` the same space as ``ours``?  The exact types must be identical at every
    level; the structure of a domain or metric is read with ``_key`` of that (shared) class,
    never a method looked up on ``theirs``; a measure is its type (and inner measure); a
    carrier type is its name, of exact type ``str``; any other leaf must be of an exact type in
    :data:`LEAF_TYPES` (else ``False``).  Never raises."""
    try:
        return _same_structure(ours, theirs, 0)  # label: same
    except Exception:
        return False  # label: same-failed


def _same_structure(ours, theirs, depth: int) -> bool:
    kind = type(ours)
    if type(theirs) is not kind or depth > MAX_DEPTH:  # label: same-type
        return False
    if kind is tuple or kind is list:  # label: same-sequence
        return len(ours) == len(theirs) and all(
            _same_structure(a, b, depth + 1) for a, b in zip(ours, theirs)
        )
    if issubclass(kind, (Domain, Metric)):  # label: same-key
        return _same_structure(kind._key(ours), kind._key(theirs), depth + 1)
    if issubclass(kind, ApproximateDivergence):  # label: same-approximate
        return _same_structure(ours.measure, theirs.measure, depth + 1)
    if issubclass(kind, Measure) and kind.__eq__ is Measure.__eq__:  # label: same-measure
        return True
    if kind is CarrierType:  # label: same-carrier
        name, other = ours.name, theirs.name
        return type(name) is str and type(other) is str and str.__eq__(name, other) is True
    if not type_is(ours, *LEAF_TYPES):  # label: same-leaf-type
        return False
    return kind.__eq__(ours, theirs) is True  # label: same-leaf


# proof: end same
