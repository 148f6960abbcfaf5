"""Metrics on aggregates with many parts: ``linf_distance``, ``l01inf_distance``,
``l02inf_distance``, with exact distances (the lemmas: partition_metrics.tex).

* ``LInfDistance(T)``: the largest ``|a_i - b_i|`` between two vectors of equal length
  (infinite otherwise; with ``monotonic``, also infinite unless ``a <= b`` or ``a >= b``
  coordinate-wise).
* ``L0PInfDistance(p, inner)`` (``p`` is 1 or 2): the distance between two dicts (or two vectors
  of equal length) is the triple ``(l0, lp, linf)`` of the per-key distances ``d_k`` under
  ``inner``, a key absent from one side standing for the zero of ``inner`` (``0``, or the empty
  dataset) there: ``l0`` counts the keys present on one side only or with ``d_k > 0``, ``lp`` is
  the ``p``-norm and ``linf`` the maximum of the ``d_k``.  A bound ``d`` is such a triple, and
  ``close`` compares component by component.
"""

from __future__ import annotations

import math
from fractions import Fraction

from .conversion import exact_argument, exact_scalar
from .errors import FailedCastError, FailedMapError, MakeDomainError, shown, type_mismatch
from .exact_type import type_is
from .metrics import (
    INFINITY,
    AbsoluteDistance,
    Metric,
    SymmetricDistance,
    _bound,
    _difference,
    _numeric,
    _sum,
    exact,
)
from .types import CarrierType

__all__ = [
    "Triple",
    "triple_d_in",
    "LInfDistance",
    "L0PInfDistance",
    "linf_distance",
    "l01inf_distance",
    "l02inf_distance",
]


# proof: begin triples
class Triple(tuple):
    """A distance ``(l0, lp, linf)`` of an L0-Lp-Linf metric, ordered component by component
    (``a <= b`` when each component of ``a`` is at most that of ``b``); ``<`` and ``>`` are
    refused, never lexicographic.  NumPy defers to these methods (``__array_ufunc__ = None``), so
    an array or NumPy scalar on the left of a comparison cannot answer elementwise."""

    __array_ufunc__ = None  # label: triple-numpy

    def __le__(self, other):
        return _componentwise(self, other, lambda a, b: a <= b)  # label: triple-le

    def __ge__(self, other):
        return _componentwise(self, other, lambda a, b: a >= b)  # label: triple-ge

    def __lt__(self, other):
        raise TypeError("distances (l0, lp, linf) are compared with <= and >= only")

    __gt__ = __lt__

    def __repr__(self) -> str:
        return tuple.__repr__(self)


def _componentwise(triple, other, holds) -> bool:
    if not type_is(other, tuple, list, Triple) or len(other) != 3:  # label: triple-other
        raise TypeError(f"a distance (l0, lp, linf) is not comparable with {shown(other)}")
    return all(holds(a, b) for a, b in zip(triple, other))  # label: triple-all


def triple_d_in(d_in) -> Triple:
    """``d_in`` as the exact distance ``(l0, lp, linf)`` of an L0-Lp-Linf metric: ``l0`` a
    non-negative integer, ``lp`` and ``linf`` non-negative, non-NaN numbers (``+inf`` allowed);
    a :class:`FailedMapError` naming ``d_in`` otherwise."""
    if not type_is(d_in, tuple, list, Triple) or len(d_in) != 3:  # label: triple-shape
        raise type_mismatch(FailedMapError)(
            f"must be a triple (l0, lp, linf), got {shown(d_in)}", parameter="d_in"
        )
    components = []
    for position, component in enumerate(d_in):
        value = exact_scalar(component, "d_in", FailedMapError)  # label: triple-exact
        integer = position == 0
        if not (type_is(value, int) if integer else type_is(value, int, float, Fraction)):
            kind = "a non-negative integer" if integer else "a number"
            raise type_mismatch(FailedMapError)(  # label: triple-type
                f"component {position} must be {kind}, got {shown(value)}", parameter="d_in"
            )
        if type(value) is float and math.isnan(value):  # label: triple-nan
            raise FailedMapError(f"component {position} must not be NaN", parameter="d_in")
        if value < 0:  # label: triple-negative
            raise FailedMapError(
                f"component {position} must be non-negative, got {shown(value)}",
                parameter="d_in",
            )
        components.append(0.0 if type(value) is float and value == 0 else value)
    return Triple(components)  # label: triple-build


# proof: end triples


# proof: begin linf
class LInfDistance(Metric):
    """``max_i |a_i - b_i|`` between vectors of equal length (``0`` for two empty vectors)."""

    def __init__(self, T: CarrierType, monotonic: bool):
        self.T = T
        self.monotonic = monotonic

    @property
    def distance_type(self) -> str:
        return self.T.name

    def distance(self, a, b):
        if len(a) != len(b):  # label: linf-length
            return INFINITY
        differences = [_difference(x, y) for x, y in zip(a, b)]  # label: linf-terms
        if INFINITY in differences:
            return INFINITY  # label: linf-infinite
        if self.monotonic:
            signed = [exact(y) - exact(x) for x, y in zip(a, b)]  # label: linf-signed
            if any(s < 0 for s in signed) and any(s > 0 for s in signed):
                return INFINITY  # label: linf-not-monotonic
        return max(differences, default=Fraction(0))  # label: linf-max

    def _key(self) -> tuple:
        return (self.T, self.monotonic)

    def __repr__(self) -> str:
        return f"LInfDistance({'monotonic, ' if self.monotonic else ''}T={self.T})"


def linf_distance(T, monotonic=False) -> LInfDistance:
    """The L-infinity distance between vectors of numeric type ``T``; with ``monotonic``, pairs
    that are not ordered coordinate-wise are at infinite distance."""
    T = _numeric(T, "linf_distance")  # label: linf-type
    monotonic = exact_argument(monotonic, "monotonic", MakeDomainError)
    if type(monotonic) is not bool:  # label: linf-flag
        raise type_mismatch(MakeDomainError)(
            f"must be True or False, got {shown(monotonic)}", parameter="monotonic"
        )
    return LInfDistance(T, monotonic)


# proof: end linf


# proof: begin l0pinf
class L0PInfDistance(Metric):
    """The triple ``(l0, lp, linf)`` of the per-key distances under ``inner`` (see the module)."""

    def __init__(self, p: int, inner: Metric):
        self.p = p
        self.inner = inner

    @property
    def distance_type(self) -> str:
        return f"(u32, {self.inner.distance_type}, {self.inner.distance_type})"

    def _zero(self):
        return 0 if type(self.inner) is AbsoluteDistance else []  # label: zero

    def per_key(self, a, b) -> list:
        """The list of ``(present on one side only, d_k)`` over the keys (or positions), or
        ``None`` when ``a`` and ``b`` are vectors of different lengths."""
        if type(a) is dict and type(b) is dict:  # label: per-key-maps
            zero = self._zero()
            return [
                ((k in a) != (k in b), self.inner.distance(a.get(k, zero), b.get(k, zero)))
                for k in a.keys() | b.keys()
            ]
        if type(a) is dict or type(b) is dict:  # label: per-key-mixed
            raise FailedCastError("a dict and a vector have no distance", parameter="value")
        if len(a) != len(b):  # label: per-key-length
            return None
        return [(False, self.inner.distance(x, y)) for x, y in zip(a, b)]  # label: per-key-vector

    def distance(self, a, b) -> tuple:
        """``(l0, lp, linf)``; for ``p = 2`` the middle component is exact (a SymPy number)."""
        l0, squared_or_sum, linf = self._components(a, b)
        if self.p == 1 or squared_or_sum == INFINITY:
            return (l0, squared_or_sum, linf)
        import sympy

        root = sympy.sqrt(sympy.Rational(squared_or_sum.numerator, squared_or_sum.denominator))
        return (l0, root, linf)  # label: l2-root

    def _components(self, a, b) -> tuple:
        """``(l0, l1 or the square of l2, linf)``, exactly."""
        terms = self.per_key(a, b)
        if terms is None:
            return (INFINITY, INFINITY, INFINITY)  # label: components-length
        distances = [d for _, d in terms]
        l0 = sum(1 for alone, d in terms if alone or d > 0)  # label: components-l0
        if self.p == 1:
            norm = _sum(distances)  # label: components-l1
        else:
            norm = _sum(d * d for d in distances)  # label: components-l2
        linf = max(distances, default=0)  # label: components-linf
        return (l0, norm, linf if linf == INFINITY else Fraction(linf))  # label: components-type

    def close(self, a, b, d) -> bool:
        """Exactly: is each component of the distance at most that of the triple ``d``?"""
        if not type_is(d, tuple, list, Triple) or len(d) != 3:  # label: close-triple
            raise FailedMapError(f"must be a triple (l0, lp, linf), got {shown(d)}", parameter="d")
        b0, bp, binf = (_bound(component) for component in d)  # label: close-bounds
        l0, norm, linf = self._components(a, b)
        if self.p == 2:
            norm_ok = bp >= 0 and norm <= bp * bp  # label: close-l2
        else:
            norm_ok = norm <= bp  # label: close-l1
        return l0 <= b0 and norm_ok and linf <= binf  # label: close-all

    def _key(self) -> tuple:
        return (self.p, self.inner)

    def __repr__(self) -> str:
        return f"L0{self.p}InfDistance({shown(self.inner)})"


def _l0pinf(p: int, metric) -> L0PInfDistance:
    if not type_is(metric, AbsoluteDistance, SymmetricDistance):  # label: inner-metric
        error = MakeDomainError if isinstance(metric, Metric) else type_mismatch(MakeDomainError)
        raise error(
            f"must be absolute_distance(T) or symmetric_distance(), got {shown(metric)}",
            parameter="metric",
        )
    return L0PInfDistance(p, metric)  # label: l0pinf-build


def l01inf_distance(metric) -> L0PInfDistance:
    """Distances ``(l0, l1, linf)`` between dicts (or vectors) of values under ``metric``."""
    return _l0pinf(1, metric)


def l02inf_distance(metric) -> L0PInfDistance:
    """Distances ``(l0, l2, linf)`` between dicts (or vectors) of values under ``metric``."""
    return _l0pinf(2, metric)


# proof: end l0pinf
