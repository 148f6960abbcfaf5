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

from .conversion import NUMPY_BINARY64_FLOATS, NUMPY_INTEGER_TYPES, exact_scalar
from .dataframe_domain import DataFrame
from .errors import FailedCastError, FailedMapError, MakeDomainError, MetricMismatchError
from .exact_type import is_exact_fraction, type_ids, type_is
from .frozen import Frozen
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
    "text_lines",
]

# proof: begin records
INFINITY = math.inf


_NUMPY_SCALARS = NUMPY_INTEGER_TYPES | NUMPY_BINARY64_FLOATS  # label: exact-numpy-types
_NUMPY_SCALAR_IDS = type_ids(*_NUMPY_SCALARS)  # label: numpy-scalar-ids
# Every NumPy scalar type itself (not its subclasses): ``item()`` of one is NumPy's own.
_NUMPY_RECORDS = frozenset(np.dtype(code).type for code in np.typecodes["All"])
_NUMPY_RECORD_IDS = type_ids(*_NUMPY_RECORDS)  # label: numpy-record-ids


def exact(value, parameter: str = "value") -> Fraction:
    """The exact rational value of a finite int or float (numpy scalars included).

    Only exact types are read: ``int``, ``bool``, ``float``, ``Fraction`` and the NumPy integer
    and binary16/32/64 scalar types; a ``Fraction`` not as its constructor stores it (NumPy
    fields, or made without the constructor) is rebuilt as the value it denotes by
    :func:`~certdp.core.conversion.exact_scalar` or refused there; anything else (a subclass,
    which may override ``item`` or ``__float__``) raises :class:`FailedCastError` naming
    ``parameter``."""
    kind = type(value)
    if id(kind) in _NUMPY_SCALAR_IDS:
        value = value.item()  # label: exact-item
    elif kind is Fraction and not is_exact_fraction(value):
        value = exact_scalar(value, parameter)  # label: exact-rebuild
    elif not type_is(value, int, bool, float, Fraction):  # label: exact-type
        raise FailedCastError(
            f"must be an int, float or Fraction, not {kind.__name__}", parameter=parameter
        )
    return Fraction(value)  # label: exact-fraction


# A row nested deeper than this is refused (no constructor makes one deeper than 2; a cyclic
# list is infinitely deep), so the recursion below stays far from Python's recursion limit.
MAX_ROW_DEPTH = 32  # label: key-max-depth


def record_key(value):
    """The identity of a record as a multiset element.

    Floats are compared as IEEE values: every NaN is one element, and -0.0 and
    +0.0 are distinct records (their bit patterns differ).  A 1-D numpy array (a
    row of a 2-D dataset), a list or a tuple (a line split into fields) is the
    record made of its entries, in order; rows nest at most ``MAX_ROW_DEPTH``
    deep.  A NumPy scalar counts by its exact type.  A subclass of a NumPy scalar
    or array type, and a row nested deeper (a cyclic list included), raise
    :class:`FailedCastError`.
    """
    return _record_key(value, 0)


def _record_key(value, depth: int):
    kind = type(value)
    if kind is np.ndarray or kind is list or kind is tuple:
        if depth >= MAX_ROW_DEPTH:  # label: key-depth
            raise FailedCastError(
                f"a row nested more than {MAX_ROW_DEPTH} deep (or a cyclic one) is not a record",
                parameter="record",
            )
        entries = value.tolist() if kind is np.ndarray else value  # label: key-row
        return ("row", tuple(_record_key(entry, depth + 1) for entry in entries))  # label: key-list
    if id(kind) in _NUMPY_RECORD_IDS:
        value = value.item()  # label: key-item
    elif issubclass(kind, (np.generic, np.ndarray)):  # label: key-refuse
        raise FailedCastError(
            f"a {kind.__name__} (a subclass of a NumPy type) is not a record", parameter="record"
        )
    if type(value) is float:
        if math.isnan(value):
            return ("float", "nan")  # label: key-nan
        return ("float", struct.pack(">d", value))  # label: key-float
    return (type(value).__name__, value)  # label: key-other


def _bound(d):
    """The bound ``d`` of :meth:`Metric.close`: exact, or a float infinity; NaN is refused."""
    if type(d) is float or type_is(d, *NUMPY_BINARY64_FLOATS):
        value = float(d)
        if math.isnan(value):  # label: bound-nan
            raise FailedMapError("must not be NaN", parameter="d")
        if math.isinf(value):  # label: bound-inf
            return value
    return exact(d, "d")  # label: bound-exact


# proof: end records


# proof: begin text-lines
def text_lines(text: str) -> list[str]:
    r"""The lines of ``text``, as Rust's ``str::lines`` (and so OpenDP) reads them: split at every
    ``"\n"``, one ``"\r"`` right before a ``"\n"`` dropped, the final line ending optional (a
    text ending in ``"\n"`` has no empty last line; the empty text has no line)."""
    pieces = text.split("\n")  # label: lines-split
    last = pieces.pop()  # label: lines-last
    lines = [piece[:-1] if piece.endswith("\r") else piece for piece in pieces]  # label: lines-cr
    if last:
        lines.append(last)  # label: lines-append
    return lines


def _dataset(value, parameter: str):
    """``value`` as a dataset: a text (exact type ``str`` or ``numpy.str_``) is the list of its
    lines; a subclass of ``str`` raises :class:`FailedCastError` naming ``parameter``; any
    other value is returned as it is."""
    kind = type(value)
    if kind is str or kind is np.str_:
        return text_lines(str(value))  # label: text-as-lines
    if issubclass(kind, str):  # label: text-refuse
        raise FailedCastError(
            f"a {kind.__name__} (a subclass of str) is not a text", parameter=parameter
        )
    return value


# proof: end text-lines


# proof: begin dataset-metrics
class Metric(Frozen, sealed=False):
    """A distance between values; ``distance_type`` names the type of its distances.
    Immutable once built."""

    distance_type = "u32"
    frozen_error = MetricMismatchError

    def distance(self, a, b):
        """The exact distance between ``a`` and ``b`` (``math.inf`` when unbounded)."""
        raise NotImplementedError

    def close(self, a, b, d) -> bool:
        """Exactly: is ``distance(a, b) <= d``?  (``d = +inf`` holds for every pair; a NaN
        ``d`` raises :class:`FailedMapError`.)"""
        return self.distance(a, b) <= _bound(d)  # label: close

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self._key() == other._key()  # label: metric-eq

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def _key(self) -> tuple:
        return ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class SymmetricDistance(Metric):
    """Size of the symmetric difference of two datasets seen as multisets (order ignored); a
    text (a ``str``) is the dataset of its lines (:func:`text_lines`), as in OpenDP; a subclass
    of ``str`` is refused; two data frames are the datasets of their rows when their schemas
    are equal, and at infinite distance otherwise."""

    def distance(self, a, b) -> int:
        if type(a) is DataFrame or type(b) is DataFrame:
            if type(a) is not type(b) or a.schema() != b.schema():  # label: sym-frames
                return INFINITY
            a, b = a.rows(), b.rows()  # label: sym-frame-rows
        a, b = _dataset(a, "a"), _dataset(b, "b")  # label: sym-texts
        histogram_a = Counter(record_key(x) for x in a)  # label: histogram
        histogram_b = Counter(record_key(x) for x in b)
        return sum(  # label: l1-of-histograms
            abs(histogram_a[key] - histogram_b[key])
            for key in histogram_a.keys() | histogram_b.keys()
        )


class InsertDeleteDistance(Metric):
    """Fewest insertions and deletions turning one sequence into the other (order matters); a
    text is the sequence of its lines, as for :class:`SymmetricDistance`."""

    def distance(self, a, b) -> int:
        if type(a) is DataFrame or type(b) is DataFrame:  # label: id-frames
            raise FailedCastError(
                "a data frame's rows have no order: use the symmetric distance",
                parameter="a" if type(a) is DataFrame else "b",
            )
        a, b = _dataset(a, "a"), _dataset(b, "b")  # label: id-texts
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
class _NumericMetric(Metric, sealed=False):
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
        if type_is(value, float, *NUMPY_BINARY64_FLOATS) and not math.isfinite(value):
            return INFINITY  # label: difference-infinite
    return abs(exact(a) - exact(b))  # label: difference-exact


def _sum(terms) -> Fraction | float:
    """The exact sum of non-negative terms; ``+inf`` as soon as one term is infinite."""
    total = Fraction(0)
    for term in terms:
        if term == INFINITY:
            return INFINITY  # label: sum-infinite
        total += term  # label: sum-exact
    return total


class AbsoluteDistance(_NumericMetric):
    """``|a - b|`` between two scalars."""

    def distance(self, a, b):
        return _difference(a, b)


class L1Distance(_NumericMetric):
    """Sum of ``|a_i - b_i|`` between two vectors of equal length (infinite otherwise)."""

    def distance(self, a, b):
        if len(a) != len(b):
            return INFINITY
        return _sum(_difference(x, y) for x, y in zip(a, b))  # label: l1-sum


class L2Distance(_NumericMetric):
    """Euclidean distance between two vectors of equal length (infinite otherwise).

    ``distance`` returns the exact value as a sympy number; ``squared_distance``
    the exact rational square, which :meth:`close` compares.
    """

    def squared_distance(self, a, b):
        if len(a) != len(b):
            return INFINITY
        return _sum(_difference(x, y) ** 2 for x, y in zip(a, b))  # label: l2-sum

    def distance(self, a, b):
        import sympy

        squared = self.squared_distance(a, b)
        if squared == INFINITY:
            return sympy.oo
        return sympy.sqrt(sympy.Rational(squared.numerator, squared.denominator))  # label: l2-sqrt

    def close(self, a, b, d) -> bool:
        d = _bound(d)
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


# Not proven (typing sugar only): OpenDP 0.16's subscript form of a numeric metric's type.
def _descriptor(cls, T) -> str:
    """``L2Distance[float]`` is the descriptor ``"L2Distance<f64>"``, as in OpenDP 0.16;
    a non-numeric ``T`` raises ``MakeDomainError``."""
    return f"{cls.__name__}<{_numeric(T, f'{cls.__name__}[T]').name}>"


for _subscriptable in (AbsoluteDistance, L1Distance, L2Distance):  # OpenDP's subscriptable ones
    _subscriptable.__class_getitem__ = classmethod(_descriptor)
