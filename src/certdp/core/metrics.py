"""Metrics on datasets and on aggregates, with exact distances.

Every metric computes the distance between two values exactly: dataset
distances are integers, numeric distances are :class:`fractions.Fraction`
(every finite float is a dyadic rational), and the L2 distance is exposed
through its exact square.  Contracts compare these exact values with the
outputs of stability maps.
"""

from __future__ import annotations

import math
import struct
from collections import Counter
from fractions import Fraction

import numpy as np

from .errors import MakeDomainError
from .types import CarrierType, carrier

__all__ = [
    "Metric",
    "SymmetricDistance",
    "InsertDeleteDistance",
    "AbsoluteDistance",
    "L1Distance",
    "L2Distance",
    "symmetric_distance",
    "insert_delete_distance",
    "absolute_distance",
    "l1_distance",
    "l2_distance",
    "exact",
]

# proof: begin records
INFINITY = math.inf


def exact(value) -> Fraction:
    """The exact rational value of a finite int or float (numpy scalars included)."""
    if isinstance(value, (np.floating, np.integer)):
        value = value.item()  # label: exact-item
    return Fraction(value)  # label: exact-fraction


def record_key(value):
    """The identity of a record as a multiset element.

    Floats are compared as IEEE values: every NaN is one element, and -0.0 and
    +0.0 are distinct records (their bit patterns differ).  A 1-D numpy array (a
    row of a 2-D dataset) is the record made of its entries, in order.
    """
    if isinstance(value, np.ndarray):
        return ("row", tuple(record_key(entry) for entry in value.tolist()))  # label: key-row
    if isinstance(value, (np.generic,)):
        value = value.item()  # label: key-item
    if isinstance(value, float):
        if math.isnan(value):
            return ("float", "nan")  # label: key-nan
        return ("float", struct.pack(">d", value))  # label: key-float
    return (type(value).__name__, value)  # label: key-other


# proof: end records


# proof: begin dataset-metrics
class Metric:
    """A distance between values; ``distance_type`` names the type of its distances."""

    distance_type = "u32"

    def distance(self, a, b):
        """The exact distance between ``a`` and ``b`` (``math.inf`` when unbounded)."""
        raise NotImplementedError

    def close(self, a, b, d) -> bool:
        """Exactly: is ``distance(a, b) <= d``?"""
        return self.distance(a, b) <= exact(d)  # label: close

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self._key() == other._key()  # label: metric-eq

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def _key(self) -> tuple:
        return ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class SymmetricDistance(Metric):
    """Size of the symmetric difference of two datasets seen as multisets (order ignored)."""

    def distance(self, a, b) -> int:
        histogram_a = Counter(record_key(x) for x in a)  # label: histogram
        histogram_b = Counter(record_key(x) for x in b)
        return sum(  # label: l1-of-histograms
            abs(histogram_a[key] - histogram_b[key])
            for key in histogram_a.keys() | histogram_b.keys()
        )


class InsertDeleteDistance(Metric):
    """Fewest insertions and deletions turning one sequence into the other (order matters)."""

    def distance(self, a, b) -> int:
        keys_a = [record_key(x) for x in a]
        keys_b = [record_key(x) for x in b]
        # longest common subsequence, one row at a time
        previous = [0] * (len(keys_b) + 1)
        for key_a in keys_a:
            current = [0]
            for j, key_b in enumerate(keys_b):
                current.append(  # label: lcs-step
                    previous[j] + 1 if key_a == key_b else max(previous[j + 1], current[j])
                )
            previous = current  # label: lcs-row
        return len(keys_a) + len(keys_b) - 2 * previous[-1]  # label: lcs-result


# proof: end dataset-metrics


# proof: begin numeric-metrics
class _NumericMetric(Metric):
    def __init__(self, T: CarrierType):
        self.T = T

    @property
    def distance_type(self) -> str:
        return self.T.name

    def _key(self) -> tuple:
        return (self.T,)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.T})"


def _difference(a, b) -> Fraction | float:
    for value in (a, b):
        if isinstance(value, (float, np.floating)) and not math.isfinite(value):
            return INFINITY  # label: difference-infinite
    return abs(exact(a) - exact(b))  # label: difference-exact


class AbsoluteDistance(_NumericMetric):
    """``|a - b|`` between two scalars."""

    def distance(self, a, b):
        return _difference(a, b)


class L1Distance(_NumericMetric):
    """Sum of ``|a_i - b_i|`` between two vectors of equal length (infinite otherwise)."""

    def distance(self, a, b):
        if len(a) != len(b):
            return INFINITY
        return sum((_difference(x, y) for x, y in zip(a, b)), Fraction(0))  # label: l1-sum


class L2Distance(_NumericMetric):
    """Euclidean distance between two vectors of equal length (infinite otherwise).

    ``distance`` returns the exact value as a sympy number; ``squared_distance``
    the exact rational square, which :meth:`close` compares.
    """

    def squared_distance(self, a, b):
        if len(a) != len(b):
            return INFINITY
        return sum((_difference(x, y) ** 2 for x, y in zip(a, b)), Fraction(0))  # label: l2-sum

    def distance(self, a, b):
        import sympy

        squared = self.squared_distance(a, b)
        if squared == INFINITY:
            return sympy.oo
        return sympy.sqrt(sympy.Rational(squared.numerator, squared.denominator))  # label: l2-sqrt

    def close(self, a, b, d) -> bool:
        d = exact(d)
        return d >= 0 and self.squared_distance(a, b) <= d * d  # label: l2-close


# proof: end numeric-metrics


# proof: begin metric-constructors
def symmetric_distance() -> SymmetricDistance:
    """The symmetric distance between datasets (add or remove a record: distance 1)."""
    return SymmetricDistance()


def insert_delete_distance() -> InsertDeleteDistance:
    """The insert-delete distance between ordered datasets."""
    return InsertDeleteDistance()


def _numeric(T, name) -> CarrierType:
    T = carrier(T)
    if not T.is_numeric:  # label: numeric
        raise MakeDomainError(f"{name} needs a numeric type, not {T}", parameter="T")
    return T


def absolute_distance(T) -> AbsoluteDistance:
    """The absolute distance ``|a - b|`` between scalars of type ``T``."""
    return AbsoluteDistance(_numeric(T, "absolute_distance"))


def l1_distance(T) -> L1Distance:
    """The L1 distance between vectors of type ``T``."""
    return L1Distance(_numeric(T, "l1_distance"))


def l2_distance(T) -> L2Distance:
    """The L2 distance between vectors of type ``T``."""
    return L2Distance(_numeric(T, "l2_distance"))


# proof: end metric-constructors
