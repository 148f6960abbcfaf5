"""Floating-point summation strategies: what each computes, how far it can stray from the exact
sum, and when it can overflow.

A strategy ``S`` is named as OpenDP names it, ``"Sequential<f64>"``, ``"Pairwise<f32>"``, ...,
plus ``"Exact<f32>"`` / ``"Exact<f64>"`` (the correctly rounded sum, beyond OpenDP).  Each
function states the property that ``float_summation.tex`` proves:

* :func:`float_sum` is the strategy's sum in ``T``; on ``n`` values of magnitude at most ``M``
  that cannot overflow it is within ``error(n, M)`` of the exact sum (Lemmas "sequential",
  "pairwise", "exact"), and :func:`sum_relaxation` returns at least ``2 * error(n, M)``,
  rounded outward in OpenDP's order of operations;
* :func:`saturating_float_sum` is the same computation with every addition clamped to
  ``[-MAX, MAX]`` (OpenDP's saturating sums);
* :func:`can_float_sum_overflow` is OpenDP's predicate (own one for ``Exact``): when it is
  false, no addition of a sum of at most ``n`` values in the bounds leaves ``T``'s range;
* :func:`unsized_stability_map` and :func:`sized_stability_map` are the maps of the two shapes,
  ``d_in * max(U - L, |L|, U) + relaxation`` and ``floor(d_in / 2) * (U - L) + relaxation``,
  rounded up, and :func:`float_sum_transformation` builds a sum's transformation.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from certdp.core.domains import atom_domain, nearest_binary32, vector_domain
from certdp.core.errors import (
    ArithmeticOverflowError,
    MakeTransformationError,
    shown,
    type_mismatch,
)
from certdp.core.metrics import absolute_distance
from certdp.core.transformation import Transformation
from certdp.core.types import carrier
from certdp.numeric import (
    inf_add,
    inf_cast,
    inf_div,
    inf_log2,
    inf_mul,
    inf_sub,
    is_representable,
    neg_inf_div,
    neg_inf_sub,
    round_rational,
)

__all__ = [
    "ALGORITHMS",
    "FloatSummation",
    "parse_summation",
    "float_bounds",
    "checked_size",
    "refuse_overflow",
    "refuse_unsound_saturation",
    "bound_magnitude",
    "size_in_type",
    "sum_error",
    "sum_relaxation",
    "can_float_sum_overflow",
    "overflow_possible",
    "float_sum",
    "saturating_float_sum",
    "as_float_array",
    "pairwise_tree_sum",
    "exact_rational_sum",
    "unsized_stability_map",
    "sized_stability_map",
    "float_sum_transformation",
]

# proof: begin arguments
ALGORITHMS = ("Sequential", "Pairwise", "Exact")
_TYPES = ("f32", "f64")
_NAME = re.compile(r"^\s*(Sequential|Pairwise|Exact)\s*<\s*(f32|f64|float|T)\s*>\s*$")


@dataclass(frozen=True)
class FloatSummation:
    """A summation algorithm over the float type ``T`` ("f32" or "f64")."""

    algorithm: str
    T: str

    @property
    def mantissa_bits(self) -> int:
        """k: explicitly stored mantissa bits (52 for f64, 23 for f32)."""
        return 52 if self.T == "f64" else 23

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(np.float64 if self.T == "f64" else np.float32)

    @property
    def max(self) -> float:
        return carrier(self.T).max

    def __str__(self) -> str:
        return f"{self.algorithm}<{self.T}>"


def _float_type_of(value) -> str | None:
    if isinstance(value, np.float32):
        return "f32"
    if isinstance(value, (float, np.float64)):
        return "f64"
    return None


def parse_summation(S, bounds=None) -> FloatSummation:
    """The strategy named ``S``; ``"...<T>"`` takes ``T`` from the type of ``bounds[0]``."""
    if isinstance(S, FloatSummation):
        if type(S) is not FloatSummation or S.algorithm not in ALGORITHMS or S.T not in _TYPES:
            raise MakeTransformationError(
                "a FloatSummation must be exactly that class, with an algorithm among "
                + ", ".join(ALGORITHMS)
                + " and T f32 or f64",
                parameter="S",
            )  # label: strategy-instance
        return S
    match = _NAME.match(S) if isinstance(S, str) else None
    if match is None:
        raise MakeTransformationError(
            f"unknown summation strategy {shown(S)}: expected one of "
            + ", ".join(f"{a}<{T}>" for a in ALGORITHMS for T in ("f32", "f64")),
            parameter="S",
        )
    algorithm, T = match.groups()
    if T == "float":  # OpenDP reads the Python name as f64  # label: strategy-float
        T = "f64"
    if T == "T":
        first = bounds[0] if isinstance(bounds, (tuple, list)) and len(bounds) == 2 else None
        T = _float_type_of(first)
        if T is None:
            raise type_mismatch(MakeTransformationError)(
                f"{shown(S)} takes its type from the bounds, which must be floats, got {shown(bounds)}",
                parameter="bounds",
            )
    return FloatSummation(algorithm, T)


def float_bounds(bounds, summation: FloatSummation) -> tuple[float, float]:
    """``bounds`` as two finite, ordered values of ``T`` (Python floats)."""
    if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
        raise type_mismatch(MakeTransformationError)(
            f"must be a pair (lower, upper), got {shown(bounds)}", parameter="bounds"
        )
    checked = []
    for name, value in zip(("lower", "upper"), bounds):
        if _float_type_of(value) is None:
            raise MakeTransformationError(
                f"{name} bound {shown(value)} must be a float, not {type(value).__name__}",
                parameter="bounds",
            )
        value = float(value)
        if not math.isfinite(value):  # label: bounds-finite
            raise MakeTransformationError(
                f"{name} bound must be finite, got {shown(value)}", parameter="bounds"
            )
        if summation.T == "f32":
            value = nearest_binary32(value)  # label: bounds-round
            if math.isinf(value):
                raise MakeTransformationError(
                    f"{name} bound is beyond the range of f32", parameter="bounds"
                )
        if not is_representable(value, summation.T):  # label: bounds-of-T
            raise MakeTransformationError(
                f"{name} bound {shown(value)} is not a value of {summation.T}", parameter="bounds"
            )
        checked.append(value)
    lower, upper = checked
    if lower > upper:  # label: bounds-ordered
        raise MakeTransformationError(
            f"lower bound {shown(lower)} must not exceed upper bound {shown(upper)}",
            parameter="bounds",
        )
    return lower, upper


def checked_size(size, parameter: str = "size") -> int:
    """``size`` as a Python int, which must be a non-negative integer."""
    if isinstance(size, (bool, np.bool_)) or not isinstance(size, (int, np.integer)):
        raise type_mismatch(MakeTransformationError)(
            f"must be an integer, got {shown(size)}", parameter=parameter
        )
    if size < 0:
        raise MakeTransformationError(
            f"must be non-negative, got {shown(size)}", parameter=parameter
        )
    return int(size)


def bound_magnitude(lower: float, upper: float) -> float:
    """M = max(|L|, U), exact."""
    return max(abs(lower), upper)


def size_in_type(size: int, summation: FloatSummation) -> float:
    """``size`` as a value of ``T``; it must be one exactly (OpenDP's exact cast)."""
    if not is_representable(size, summation.T):
        raise MakeTransformationError(
            f"{shown(size)} is not exactly a value of {summation.T}, so the rounding error of "
            f"{summation} cannot be bounded",
            parameter="size",
        )
    return float(size)


# proof: end arguments


# proof: begin relaxation
def sum_error(summation: FloatSummation, size: int, lower: float, upper: float) -> float:
    """An upper bound, rounded up, on |float sum - exact sum| for ``size`` values in bounds."""
    T, k = summation.T, summation.mantissa_bits
    n = size_in_type(size, summation)  # label: size-exact
    magnitude = bound_magnitude(lower, upper)  # label: magnitude
    two_to_k = math.ldexp(1.0, k)
    if summation.algorithm == "Sequential":
        # n^2 / 2^k * M
        squared = inf_mul(n, n, T)  # label: seq-square
        return inf_mul(inf_div(squared, two_to_k, T), magnitude, T)  # label: seq-error
    if summation.algorithm == "Pairwise":
        # u = log2(n) / 2^k; u / (1 - u) * n * M
        u = inf_div(inf_log2(n, T), two_to_k, T)  # label: pw-u
        denominator = neg_inf_sub(1.0, u, T)
        if denominator <= 0.0:  # label: pw-denominator
            raise ArithmeticOverflowError(
                f"log2({shown(size)}) / 2^{shown(k)} is not below 1: no {summation} error bound",
                parameter="size",
            )
        ratio = inf_div(u, denominator, T)  # label: pw-ratio
        return inf_mul(inf_mul(ratio, n, T), magnitude, T)  # label: pw-error
    # Exact: n * M / 2^(k+1)
    return inf_div(inf_mul(n, magnitude, T), 2.0 * two_to_k, T)  # label: exact-error


def sum_relaxation(summation: FloatSummation, size: int, lower: float, upper: float) -> float:
    """2 * sum_error, rounded up: what rounding adds to the distance between two float sums."""
    error = sum_error(summation, size, lower, upper)
    return inf_add(error, error, summation.T)  # label: relaxation


# proof: end relaxation


# proof: begin overflow
def _power_of_two_at_least(magnitude: float) -> Fraction:
    """P = 2^ceil(log2 M) for M > 0, the power of two OpenDP rounds M up to."""
    mantissa, exponent = math.frexp(magnitude)  # M = mantissa * 2^exponent, mantissa in [1/2, 1)
    return Fraction(2) ** (exponent - 1 if mantissa == 0.5 else exponent)


def overflow_possible(summation: FloatSummation, size: int, lower: float, upper: float) -> bool:
    """Could a sum of at most ``size`` values in ``[lower, upper]`` overflow?

    ``False`` is a proof obligation (Lemma "no overflow"); ``True`` may be conservative.
    """
    T = summation.T
    magnitude = bound_magnitude(lower, upper)  # label: of-magnitude
    largest = Fraction(summation.max)
    if summation.algorithm == "Exact":  # label: of-exact-case
        # the exact sum is at most n * M in magnitude, and rounding it stays within MAX
        return size * Fraction(magnitude) > largest  # label: of-exact
    emax, k = (1023, 52) if T == "f64" else (127, 23)
    n = inf_cast(size, T)  # label: of-size
    if summation.algorithm == "Sequential":
        # an addend below ulp(MAX) / 2 cannot carry a partial sum past MAX
        if magnitude < math.ldexp(1.0, emax - k - 1):  # label: of-seq-small
            return False
    else:
        # n * M below ulp(MAX) keeps every partial sum far below MAX
        if n == 0.0:
            return True  # OpenDP divides by n here and refuses  # label: of-pw-empty
        if magnitude < neg_inf_div(math.ldexp(1.0, emax - k), n, T):  # label: of-pw-small
            return False
    power = _power_of_two_at_least(magnitude)  # label: of-power
    if power > largest:
        return True  # label: of-power-overflow
    return power * Fraction(n) > largest  # label: of-product


# proof: end overflow


# proof: begin refusals
def refuse_overflow(summation: FloatSummation, size: int, lower: float, upper: float) -> None:
    """Raise ``ArithmeticOverflowError`` when a checked sum could overflow."""
    if overflow_possible(summation, size, lower, upper):  # label: refuse-overflow
        raise ArithmeticOverflowError(
            f"a {summation} sum of up to {shown(size)} values in [{shown(lower)}, {shown(upper)}] could overflow "
            f"{summation.T}: tighten the bounds, lower the size, or use an ordered sum",
            parameter="bounds",
        )


def refuse_unsound_saturation(
    summation: FloatSummation, size: int, lower: float, upper: float
) -> None:
    """Raise ``ArithmeticOverflowError`` where a saturating pairwise sum has no proven map:
    three or more records, bounds of both signs, and a sum that could overflow.  (OpenDP 0.16
    accepts these, and its map is refuted there: see the remark on saturating pairwise sums in
    float_summation.tex.)  Up to two records, the pairwise sum is one rounded addition."""
    mixed_signs = lower < 0.0 < upper
    if (
        summation.algorithm == "Pairwise"
        and size >= 3
        and mixed_signs
        and overflow_possible(summation, size, lower, upper)
    ):  # label: refuse-saturation
        raise ArithmeticOverflowError(
            f"a saturating {summation} sum of up to {shown(size)} values in [{shown(lower)}, {shown(upper)}] "
            "could overflow, and with bounds of both signs a saturated pairwise sum can move "
            "by more than the stability map allows when records shift: use Sequential or "
            "Exact, bounds of one sign, or a smaller size",
            parameter="S",
        )


def can_float_sum_overflow(size, bounds, S) -> bool:
    """``overflow_possible`` for a strategy name (as ``make_sum`` asks it)."""
    summation = parse_summation(S, bounds)
    lower, upper = float_bounds(bounds, summation)
    return overflow_possible(summation, size, lower, upper)  # label: can-overflow


# proof: end refusals


# -- the sums -----------------------------------------------------------------------------


# proof: begin pairwise
def _bit_reversed(values: np.ndarray, bits: int) -> np.ndarray:
    reversed_ = np.zeros_like(values)
    for bit in range(bits):
        reversed_ |= ((values >> bit) & 1) << (bits - 1 - bit)
    return reversed_


@functools.lru_cache(maxsize=16)
def _pairwise_plan(n: int):
    """The nodes one level above the leaves of the pairwise tree of ``n >= 2`` records.

    The tree splits a node of ``m`` records into its first ``m // 2`` and its last
    ``m - m // 2``.  At depth ``d`` the node reached by the branch bits ``b_1 ... b_d`` (``b_i = 1``
    for "right") holds ``floor((n + sum_i b_i 2^(i-1)) / 2^d)`` records, so with
    ``D = ceil(log2 n)`` every node at depth ``D - 1`` holds one or two records, and every node
    above holds at least two.  Returns ``(first, pairs, take, lone)``: the first record of each
    node at depth ``D - 1`` (left to right); the nodes holding two records; for each node, where
    its value sits in the sources (the sums of adjacent records starting at even positions, then
    those starting at odd positions, then the records of the one-record nodes); and the records
    of the one-record nodes.
    """
    depth = (n - 1).bit_length()
    width = 1 << (depth - 1)
    branches = _bit_reversed(np.arange(width, dtype=np.int64), depth - 1)
    holds_two = branches >= (1 << depth) - n
    sizes = 1 + holds_two.astype(np.int64)
    first = np.zeros(width, dtype=np.int64)
    np.cumsum(sizes[:-1], out=first[1:])
    odd = first % 2 == 1
    pairs, singles = np.flatnonzero(holds_two), np.flatnonzero(~holds_two)
    sources = n // 2 + (n - 1) // 2
    take = np.where(odd, n // 2 + first // 2, first // 2)
    take[singles] = sources + np.arange(len(singles))  # the singles are appended after the sums
    return first, pairs, take, first[singles]


def pairwise_tree_sum(values: np.ndarray, saturate: bool = False):
    """The pairwise sum of ``values`` in their dtype: ``sum(v) = sum(v[:m]) + sum(v[m:])`` with
    ``m = len(v) // 2``, one record summing to itself and none to ``+0.0``.

    Evaluated level by level from the leaves; with ``saturate`` every addition is clamped to
    the finite range of the dtype.
    """
    n = len(values)
    if n == 0:
        return values.dtype.type(0.0)  # label: pw-empty
    if n == 1:
        return values[0]  # label: pw-single
    with np.errstate(over="ignore", invalid="ignore"):
        return _pairwise_levels(values, saturate)


def _pairwise_levels(values: np.ndarray, saturate: bool):
    n = len(values)
    largest = np.finfo(values.dtype).max
    evens, odds = n // 2, (n - 1) // 2
    if n & (n - 1) == 0:
        level = values[0::2] + values[1::2]  # label: pw-perfect
    else:
        _, _, take, lone = _pairwise_plan(n)
        # the sums of adjacent records starting at even, then at odd positions, then the
        # records that are nodes of their own
        sources = np.empty(evens + odds + len(lone), dtype=values.dtype)
        np.add(values[0 : 2 * evens : 2], values[1 : 2 * evens : 2], out=sources[:evens])
        np.add(values[1 : n - 1 : 2], values[2:n:2], out=sources[evens : evens + odds])
        values.take(lone, out=sources[evens + odds :])  # label: pw-sources
        level = sources.take(take)  # label: pw-leaves
    if saturate:
        np.clip(level, -largest, largest, out=level)
    while len(level) > 1:
        level = level[0::2] + level[1::2]  # label: pw-level
        if saturate:
            np.clip(level, -largest, largest, out=level)
    return level[0]


# proof: end pairwise


# proof: begin sums
def as_float_array(data, summation: FloatSummation) -> np.ndarray:
    """The records as a 1-D array of ``T`` (exact: members of the input domain are T values)."""
    if isinstance(data, np.ndarray) and data.dtype == summation.dtype:
        return data
    return np.asarray(data, dtype=summation.dtype)  # label: as-array


def _sequential_sum(values: np.ndarray, saturate: bool):
    """Left to right in the dtype: ``((s + v_0) + v_1) + ...`` from ``s = -0.0`` (Rust's
    ``Iterator::sum``), or from ``s = +0.0`` with every addition clamped to the finite range
    (OpenDP's saturating fold)."""
    scalar = values.dtype.type
    if len(values) == 0:
        return scalar(0.0 if saturate else -0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        # strictly sequential: r[i] = r[i - 1] + v[i], and -0.0 + v_0 == v_0 bit for bit
        total = np.cumsum(values)[-1]  # label: seq-cumsum
    if not saturate:
        return total
    if math.isfinite(total):
        # no partial sum overflowed (an infinity never becomes finite again), so clamping
        # changes nothing; from +0.0 the only difference is that a zero total is +0.0
        return total + scalar(0.0)  # label: seq-positive-zero
    largest = np.finfo(values.dtype).max
    accumulator = scalar(0.0)
    with np.errstate(over="ignore"):
        for value in values:
            unclamped = scalar(accumulator + value)
            accumulator = min(max(unclamped, -largest), largest)  # label: seq-clamp
    return scalar(accumulator)


def exact_rational_sum(values: np.ndarray) -> Fraction:
    """The exact sum of finite floats, as a Fraction (integer arithmetic, no rounding)."""
    if len(values) == 0:
        return Fraction(0)
    doubles = values.astype(np.float64, copy=False)
    mantissas, exponents = np.frexp(doubles)
    # each value is m * 2^e with an integer |m| < 2^53 and e >= -1126
    integers = (mantissas * 2.0**53).astype(np.int64)
    shifts = (exponents.astype(np.int64) - 53) + 1126
    high = integers >> 26
    low = integers - (high << 26)
    total = 0
    chunk = 1 << 25  # per bin, |sum of high parts| < 2^25 * 2^27 = 2^52: exact in a double
    for start in range(0, len(values), chunk):
        part = slice(start, start + chunk)
        length = int(shifts[part].max()) + 1
        high_sums = np.bincount(shifts[part], weights=high[part], minlength=length)
        low_sums = np.bincount(shifts[part], weights=low[part], minlength=length)
        for shift in np.flatnonzero((high_sums != 0) | (low_sums != 0)):
            total += ((int(high_sums[shift]) << 26) + int(low_sums[shift])) << int(shift)
    return Fraction(total, 1 << 1126)


def _exact_sum(values: np.ndarray, summation: FloatSummation, saturate: bool):
    exact = exact_rational_sum(values)
    try:
        rounded = round_rational(exact, summation.T, "nearest")
    except ArithmeticOverflowError:
        if not saturate:
            raise
        rounded = summation.max if exact > 0 else -summation.max
    return summation.dtype.type(rounded)


def float_sum(summation: FloatSummation, data) -> float:
    """The strategy's sum of ``data`` in ``T`` (Sequential starts from ``-0.0``, as Rust's
    ``Iterator::sum`` does)."""
    values = as_float_array(data, summation)
    if summation.algorithm == "Sequential":
        return float(_sequential_sum(values, saturate=False))  # label: sum-sequential
    if summation.algorithm == "Pairwise":
        return float(pairwise_tree_sum(values))  # label: sum-pairwise
    return float(_exact_sum(values, summation, saturate=False))  # label: sum-exact


def saturating_float_sum(summation: FloatSummation, data) -> float:
    """The strategy's sum with every addition clamped to ``[-MAX, MAX]`` (Sequential starts
    from ``+0.0``, as OpenDP's saturating fold does)."""
    values = as_float_array(data, summation)
    if summation.algorithm == "Sequential":
        return float(_sequential_sum(values, saturate=True))  # label: sat-sequential
    if summation.algorithm == "Pairwise":
        total = pairwise_tree_sum(values)
        if math.isfinite(total):
            return float(total)  # no addition overflowed: clamping changes nothing
        return float(pairwise_tree_sum(values, saturate=True))  # label: sat-pairwise
    return float(_exact_sum(values, summation, saturate=True))  # label: sat-exact


# proof: end sums


# -- the transformation of each shape ------------------------------------------------------


# proof: begin shapes
def unsized_stability_map(summation: FloatSummation, size_limit: int, lower: float, upper: float):
    """``d_in -> d_in * max(U - L, |L|, U) + relaxation``, every operation rounded up, for
    sums of at most ``size_limit`` records; raises as :func:`sum_relaxation` does."""
    T = summation.T
    per_record = max(inf_sub(upper, lower, T), bound_magnitude(lower, upper))  # label: ideal
    relaxation = sum_relaxation(summation, size_limit, lower, upper)  # label: unsized-relaxation

    def stability_map(d_in):
        return inf_add(  # label: unsized-map
            inf_mul(inf_cast(d_in, T), per_record, T), relaxation, T
        )

    return stability_map


def sized_stability_map(summation: FloatSummation, size: int, lower: float, upper: float):
    """``d_in -> floor(d_in / 2) * (U - L) + relaxation``, every operation rounded up, for sums
    of exactly ``size`` records; raises as :func:`sum_relaxation` does."""
    T = summation.T
    span = inf_sub(upper, lower, T)  # label: span
    relaxation = sum_relaxation(summation, size, lower, upper)  # label: sized-relaxation

    def stability_map(d_in):
        changed = inf_cast(d_in // 2, T)  # label: map-pairs
        return inf_add(inf_mul(changed, span, T), relaxation, T)  # label: sized-map

    return stability_map


def float_sum_transformation(
    summation: FloatSummation, bounds, size, function, input_metric, stability_map
):
    """The transformation of a float sum: vectors of values of ``T`` in ``bounds`` (of
    exactly ``size`` records, or any number when ``size`` is ``None``) to non-NaN values of
    ``T``, from ``input_metric`` to the absolute distance."""
    T = summation.T
    return Transformation(
        input_domain=vector_domain(atom_domain(bounds=bounds, T=T), size=size),  # label: domain
        output_domain=atom_domain(T=T, nan=False),  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=absolute_distance(T),  # label: output-metric
        stability_map=stability_map,
    )


# proof: end shapes
