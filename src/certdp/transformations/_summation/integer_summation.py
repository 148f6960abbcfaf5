"""What every integer sum shares: argument checks, the overflow predicate, the stability
arithmetic, the summation kernels and the transformation of each shape (sized or not).

Each function states the property that ``integer_summation.tex`` proves and that the
proofs of the integer sum constructors cite:

* :func:`can_int_sum_overflow` is OpenDP's predicate; when it is false, no partial sum of
  at most ``size`` values in ``bounds`` leaves the range of ``T`` (Lemma "no overflow");
* :func:`scaled_distance` returns ``multiplier * constant`` exactly, or raises;
* :func:`exact_sum` is the exact integer sum; :func:`monotonic_saturating_sum`,
  :func:`split_saturating_sum` and :func:`ordered_saturating_sum` return exactly what
  Rust's saturating folds of OpenDP's monotonic, split and ordered sums return;
* :func:`unsized_integer_sum` and :func:`sized_integer_sum` build the transformation of a
  sum of any number / of exactly ``size`` records in ``bounds``, with the stability map
  ``d_in * max(|lower|, upper)`` / ``floor(d_in / 2) * (upper - lower)`` (Lemma "shapes").
"""

from __future__ import annotations

import itertools

import numpy as np

from certdp.core.domains import VectorDomain, atom_domain, vector_domain
from certdp.core.errors import (
    ArithmeticOverflowError,
    FailedCastError,
    MakeTransformationError,
    shown,
    type_mismatch,
)
from certdp.core.metrics import absolute_distance
from certdp.core.transformation import Transformation
from certdp.core.types import CarrierType, carrier, infer_type
from certdp.numeric import checked_mul, exact_cast, saturating_add, saturating_sum

__all__ = [
    "integer_type",
    "integer_bounds",
    "checked_size",
    "bounded_vector_domain",
    "can_int_sum_overflow",
    "signs_agree",
    "require_one_sign",
    "bound_magnitude",
    "bound_range",
    "scaled_distance",
    "exact_sum",
    "clamp_to_type",
    "monotonic_saturating_sum",
    "split_saturating_sum",
    "ordered_saturating_sum",
    "unsized_integer_sum",
    "sized_integer_sum",
]


# -- arguments ---------------------------------------------------------------------------


# proof: begin arguments
def integer_type(T, bounds) -> CarrierType:
    """The integer carrier type ``T``, inferred from ``bounds[0]`` when ``None`` (int → i32)."""
    if T is None:
        if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
            raise type_mismatch(MakeTransformationError)(
                f"must be a pair (lower, upper), got {shown(bounds)}", parameter="bounds"
            )
        T = infer_type(bounds[0])
    T = carrier(T)
    if not T.is_integer:
        raise MakeTransformationError(f"must be an integer type, not {T}", parameter="T")
    return T


def integer_bounds(bounds, T: CarrierType) -> tuple[int, int]:
    """``bounds`` as a pair of Python ints, each a value of ``T`` (their order is not checked)."""
    if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
        raise type_mismatch(MakeTransformationError)(
            f"must be a pair (lower, upper), got {shown(bounds)}", parameter="bounds"
        )
    for name, value in zip(("lower", "upper"), bounds):
        if not T.contains(value):
            raise MakeTransformationError(
                f"{name} bound {shown(value)} is not a value of {T}", parameter="bounds"
            )
    return int(bounds[0]), int(bounds[1])


def checked_size(size) -> int:
    """``size`` as a Python int, which must be a non-negative integer."""
    if isinstance(size, (bool, np.bool_)) or not isinstance(size, (int, np.integer)):
        raise type_mismatch(MakeTransformationError)(
            f"must be an integer, got {shown(size)}", parameter="size"
        )
    if size < 0:
        raise MakeTransformationError(f"must be non-negative, got {shown(size)}", parameter="size")
    return int(size)


def bounded_vector_domain(bounds, T: CarrierType, size: int | None) -> VectorDomain:
    """``vector_domain(atom_domain(bounds, T), size)``; refuses ``lower > upper``."""
    return vector_domain(atom_domain(bounds=bounds, T=T), size=size)


def signs_agree(bounds: tuple[int, int]) -> bool:
    """Do the bounds share a sign (zero agreeing with both)?"""
    lower, upper = bounds
    return lower == 0 or upper == 0 or (lower > 0) == (upper > 0)  # label: signs-agree


def require_one_sign(bounds: tuple[int, int]) -> None:
    """Raise ``MakeTransformationError`` unless the bounds share a sign (monotonic sums)."""
    if not signs_agree(bounds):  # label: signs-check
        raise MakeTransformationError(
            f"monotonic summation needs bounds of one sign, got {shown(list(bounds))}",
            parameter="bounds",
        )


# proof: end arguments


# -- the facts the proofs use ------------------------------------------------------------


# proof: begin overflow-predicate
def can_int_sum_overflow(size: int, bounds: tuple[int, int], T: CarrierType) -> bool:
    """OpenDP's predicate: is ``size`` or ``|lower|`` not a value of ``T``, or does
    ``max(|lower|, upper) * size`` exceed ``T.max``?"""
    lower, upper = bounds
    if size > T.max or -lower > T.max:  # label: overflow-representable
        return True
    return max(abs(lower), upper) * size > T.max  # label: overflow-product


# proof: end overflow-predicate


# proof: begin constants
def bound_magnitude(bounds: tuple[int, int], T: CarrierType) -> int:
    """``max(|lower|, upper)``; raises when ``|lower|`` is not a value of ``T``."""
    lower, upper = bounds
    if -lower > T.max:  # label: magnitude-check
        raise ArithmeticOverflowError(
            f"|{shown(lower)}| is not a value of {T}, so the sensitivity constant max(|lower|, upper) "
            "is not representable",
            parameter="bounds",
        )
    return max(abs(lower), upper)  # label: magnitude


def bound_range(bounds: tuple[int, int], T: CarrierType) -> int:
    """``upper - lower``; raises when it is not a value of ``T``."""
    lower, upper = bounds
    if not T.min <= upper - lower <= T.max:  # label: range-check
        raise ArithmeticOverflowError(
            f"upper - lower = {shown(upper)} - {shown(lower)} = {shown(upper - lower)} is not a value of {T}",
            parameter="bounds",
        )
    return upper - lower  # label: range


def scaled_distance(multiplier: int, constant: int, T: CarrierType) -> int:
    """``multiplier * constant`` exactly, as a value of ``T``; raises a typed error
    (never rounds) when ``multiplier`` or the product is not a value of ``T``."""
    try:
        factor = exact_cast(multiplier, T.name)  # label: cast-multiplier
    except FailedCastError as error:
        raise FailedCastError(
            f"the distance factor {shown(multiplier)} taken from d_in is not a value of {T}: {error}",
            parameter="d_in",
        ) from error
    try:
        return checked_mul(factor, constant, T.name)  # label: checked-product
    except ArithmeticOverflowError as error:
        raise ArithmeticOverflowError(
            f"{shown(multiplier)} * {shown(constant)} overflows {T}; use tighter bounds or a wider type",
            parameter="d_in",
        ) from error


# proof: end constants


# -- summation kernels ---------------------------------------------------------------------

# proof: begin kernels
_HALF_BITS = 32
_LOW_MASK = (1 << _HALF_BITS) - 1
# Up to this many terms, sums of 32-bit halves are exact in int64 (2**30 * 2**32 < 2**63).
_VECTOR_LIMIT = 1 << 30


def _is_integer_array(values) -> bool:
    return isinstance(values, np.ndarray) and values.dtype.kind in "iu" and values.ndim == 1


def _halves(array: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int64 arrays ``high, low`` with ``array == high * 2**32 + low`` and ``0 <= low < 2**32``."""
    if array.dtype.kind == "u":
        wide = array.astype(np.uint64, copy=False)
        high = (wide >> np.uint64(_HALF_BITS)).astype(np.int64)
        return high, (wide & np.uint64(_LOW_MASK)).astype(np.int64)  # label: halves-unsigned
    wide = array.astype(np.int64, copy=False)
    return wide >> _HALF_BITS, wide & _LOW_MASK  # label: halves-signed


def exact_sum(values) -> int:
    """The exact sum of a sequence of integers, as a Python int."""
    if not _is_integer_array(values):
        return sum(map(int, values))  # label: exact-sum-python
    total = 0
    for start in range(0, values.size, _VECTOR_LIMIT):
        high, low = _halves(values[start : start + _VECTOR_LIMIT])
        total += (int(high.sum()) << _HALF_BITS) + int(low.sum())  # label: exact-sum-halves
    return total


def clamp_to_type(value: int, T: CarrierType) -> int:
    """``value`` clamped to ``[T.min, T.max]``."""
    return min(max(value, T.min), T.max)


def monotonic_saturating_sum(values, T: CarrierType) -> int:
    """Rust's ``fold(0, saturating_add)`` over values that share a sign: the clamped exact sum."""
    return clamp_to_type(exact_sum(values), T)  # label: monotonic-sum


def split_saturating_sum(values, T: CarrierType) -> int:
    """OpenDP's split sum: saturating sums of the negatives and of the positives, then their
    saturating sum."""
    if _is_integer_array(values):
        negatives, positives = values[values < 0], values[values > 0]
    else:
        negatives = [value for value in values if value < 0]
        positives = [value for value in values if value > 0]
    negative_sum = max(exact_sum(negatives), T.min)  # label: split-negatives
    positive_sum = min(exact_sum(positives), T.max)  # label: split-positives
    return saturating_add(negative_sum, positive_sum, T.name)  # label: split-combine


def ordered_saturating_sum(values, T: CarrierType) -> int:
    """Rust's ``fold(0, saturating_add)`` over ``values`` in their order."""
    first_exit, before = _first_prefix_outside(values, T)  # label: ordered-prefixes
    if first_exit is None:
        return before  # label: ordered-exact
    # ``before`` is the exact (unsaturated) state ahead of position ``first_exit``; a fold
    # from 0 whose first term is ``before`` reaches that state, then continues unchanged.
    tail = _tail(values, first_exit)  # label: ordered-tail
    if T.bits > 64:
        rest = [int(value) for value in tail]
        return saturating_sum([before, *rest], T.name)  # label: ordered-fallback-wide
    # members of T and ``before`` convert exactly to T's dtype (numeric's vectorised path)
    rest = np.asarray(tail, dtype=T.numpy_dtype)  # label: ordered-fallback-array
    terms = np.concatenate((np.array([before], dtype=T.numpy_dtype), rest))
    return saturating_sum(terms, T.name)  # label: ordered-fallback


def _tail(values, start: int):
    """The records of ``values`` from index ``start`` on, in order; also for sequences that
    cannot be sliced (a ``collections.deque`` is a ``Sequence`` but refuses slices)."""
    if isinstance(values, np.ndarray):
        return values[start:]
    return list(itertools.islice(values, start, None))


# proof: end kernels


# proof: begin prefixes
def _first_prefix_outside(values, T: CarrierType) -> tuple[int | None, int]:
    """The first index whose exact prefix sum leaves ``[T.min, T.max]`` and the exact prefix
    sum before it; ``(None, exact total)`` when every prefix sum stays inside."""
    if _is_integer_array(values) and values.size < _VECTOR_LIMIT:
        return _first_prefix_outside_array(values, T)  # label: prefixes-array
    low, high, total = T.min, T.max, 0
    for index, partial in enumerate(itertools.accumulate(map(int, values))):
        if not low <= partial <= high:  # label: prefixes-python
            return index, total
        total = partial
    return None, total


def _first_prefix_outside_array(values: np.ndarray, T: CarrierType) -> tuple[int | None, int]:
    if values.size == 0:
        return None, 0
    high, low = _halves(values)
    # prefix_i = high_prefix_i * 2**32 + low_prefix_i with 0 <= low_prefix_i < 2**32
    low_prefix = np.cumsum(low)
    high_prefix = np.cumsum(high) + (low_prefix >> _HALF_BITS)  # label: carry
    low_prefix &= _LOW_MASK

    def prefix(index: int) -> int:
        return (int(high_prefix[index]) << _HALF_BITS) + int(low_prefix[index])

    if T.bits > 64:
        # fewer than 2**30 terms below 2**64 in magnitude: every prefix is below 2**94
        return None, prefix(values.size - 1)  # label: wide-type
    max_high, max_low = divmod(T.max, 1 << _HALF_BITS)
    min_high, min_low = divmod(T.min, 1 << _HALF_BITS)
    above = (high_prefix > max_high) | ((high_prefix == max_high) & (low_prefix > max_low))
    below = (high_prefix < min_high) | ((high_prefix == min_high) & (low_prefix < min_low))
    outside = above | below  # label: outside
    if not outside.any():
        return None, prefix(values.size - 1)
    index = int(np.argmax(outside))
    return index, prefix(index - 1) if index else 0


# proof: end prefixes


# -- the transformation of each shape ------------------------------------------------------


# proof: begin shapes
def unsized_integer_sum(bounds: tuple[int, int], T: CarrierType, function, input_metric):
    """The sum ``function`` of any number of values of ``T`` in ``bounds``, from
    ``input_metric`` to the absolute distance, with the stability map
    ``d_in -> d_in * max(|lower|, upper)`` (exact, or a typed error)."""
    input_domain = bounded_vector_domain(bounds, T, None)  # label: unsized-domain
    magnitude = bound_magnitude(bounds, T)  # label: unsized-magnitude

    def stability_map(d_in):
        return scaled_distance(d_in, magnitude, T)  # label: unsized-map

    return _integer_sum(input_domain, T, function, input_metric, stability_map)


def sized_integer_sum(size: int, bounds: tuple[int, int], T: CarrierType, function, input_metric):
    """The sum ``function`` of exactly ``size`` values of ``T`` in ``bounds``, from
    ``input_metric`` to the absolute distance, with the stability map
    ``d_in -> floor(d_in / 2) * (upper - lower)`` (exact, or a typed error)."""
    span = bound_range(bounds, T)  # label: sized-range
    input_domain = bounded_vector_domain(bounds, T, size)  # label: sized-domain

    def stability_map(d_in):
        return scaled_distance(d_in // 2, span, T)  # label: sized-map

    return _integer_sum(input_domain, T, function, input_metric, stability_map)


def _integer_sum(input_domain, T: CarrierType, function, input_metric, stability_map):
    return Transformation(
        input_domain=input_domain,
        output_domain=atom_domain(T=T),  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=absolute_distance(T),  # label: output-metric
        stability_map=stability_map,
    )


# proof: end shapes
