"""``make_quantile_score_candidates``: for each candidate ``c`` of a strictly increasing list,
the integer score ``|(den - num) * min(#(x < c), L) - num * min(#(x > c), L)|``, where
``num / den`` stands for ``alpha`` and ``L`` is the size limit, chosen as OpenDP 0.16 chooses
them (the lower the score, the closer ``c`` is to the ``alpha``-quantile of ``x``).

Guarantee: the output is a vector of ``u64`` (one score per candidate), and the map
``d_in -> (d_in // 2) * den`` (known size) or ``d_in -> d_in * max(num, den - num)`` (unknown
size), refused with ``ArithmeticOverflowError`` above ``2**64 - 1``, is a valid stability map
from the symmetric or insert-delete distance to the L-infinity distance.  Counts and scores are
exact integers.

Relation to OpenDP 0.16: ``alpha`` must lie in the open interval (0, 1); OpenDP also accepts 0
and 1, certdp refuses them with ``MakeTransformationError`` naming ``alpha`` (issue #22's rule).
"""

from __future__ import annotations

import bisect
import itertools
import math
import operator

import numpy as np

from certdp.contracts import certified
from certdp.core.admission import sequence_parameter
from certdp.core.conversion import exact_argument
from certdp.core.domains import atom_domain, carrier_constant, vector_domain
from certdp.core.errors import (
    ArithmeticOverflowError,
    MakeTransformationError,
    shown,
    type_mismatch,
)
from certdp.core.exact_type import kind_ids, type_ids, type_is
from certdp.core.partial import partial_constructor
from certdp.core.partition_metrics import linf_distance
from certdp.core.transformation import Transformation
from certdp.transformations._dataset import dataset_input

__all__ = [
    "make_quantile_score_candidates",
    "then_quantile_score_candidates",
    "score_constants",
    "candidate_counts",
]


# proof: begin constants
U64_MAX = 2**64 - 1  # label: u64-max
UNSIZED_DENOMINATOR = 10_000  # label: unsized-den


def score_constants(size, alpha: float) -> tuple[int, int, int]:
    """``(num, den, limit)`` as OpenDP 0.16 picks them: ``num / den`` is ``alpha`` exactly when
    its denominator is below ``2**64 - 1 // size`` (``10000`` without a size), else
    ``trunc(alpha * den)`` over that bound; ``limit`` is the size, or ``(2**64 - 1) // den``.
    Always ``0 <= num <= den`` and ``limit * den <= 2**64 - 1``.  ``alpha`` must lie strictly
    between 0 and 1 (issue #22: OpenDP 0.16 also takes 0 and 1)."""
    if not 0.0 < alpha < 1.0:  # label: alpha-range
        raise MakeTransformationError(
            f"alpha must lie in the open interval (0, 1), got {shown(alpha)}", parameter="alpha"
        )
    exact_num, exact_den = alpha.as_integer_ratio()  # label: alpha-exact
    if size is None:
        bound = UNSIZED_DENOMINATOR  # label: den-unsized
    else:
        if not 0 < size <= U64_MAX:  # label: size-range
            raise MakeTransformationError(
                f"the size must be in [1, 2**64 - 1], got {shown(size)}",
                parameter="input_domain",
            )
        bound = U64_MAX // size  # label: den-sized
    if exact_den < bound:  # label: den-choice
        num, den = exact_num, exact_den  # label: den-exact
    else:
        num, den = int(alpha * float(bound)), bound  # label: den-approx
    limit = U64_MAX // den if size is None else size  # label: limit
    return num, den, limit


# proof: end constants


# proof: begin counts
def candidate_counts(data, candidates: tuple, T) -> tuple[list[int], list[int]]:
    """``(lt, gt)``: for each candidate ``c``, the exact numbers of records ``< c`` and
    ``> c`` (records and candidates are non-NaN values of ``T``, candidates increasing)."""
    if T.bits > 64:  # label: counts-wide
        ordered = sorted(data)
        lt = [bisect.bisect_left(ordered, c) for c in candidates]
        le = [bisect.bisect_right(ordered, c) for c in candidates]
    else:
        dtype = np.float64 if T.is_float else T.numpy_dtype  # label: counts-dtype
        ordered = np.sort(np.asarray(data, dtype=dtype))  # label: counts-sort
        edges = np.asarray(candidates, dtype=dtype)  # label: counts-edges
        lt = np.searchsorted(ordered, edges, side="left").tolist()  # label: counts-lt
        le = np.searchsorted(ordered, edges, side="right").tolist()  # label: counts-le
    n = len(ordered)  # label: counts-n
    return lt, [n - below_or_equal for below_or_equal in le]  # label: counts-gt


# proof: end counts


# proof: begin arguments
def _plain_values(candidates, T) -> bool:
    """Is ``candidates`` a list or tuple of values ``carrier_constant`` returns unchanged and
    ``exact_argument`` leaves as they are: plain non-NaN ``float``s for ``f64``, plain ``int``s
    within the range of an integer ``T``?  (A bulk test of the per-entry checks.)"""
    if not type_is(candidates, list, tuple):  # label: plain-sequence
        return False
    class_ids = kind_ids(candidates)  # label: plain-kinds
    if T.name == "f64" and class_ids == type_ids(float):  # label: plain-floats
        return not any(map(math.isnan, candidates))  # label: plain-not-nan
    if T.is_integer and T.bits <= 64 and class_ids == type_ids(int):  # label: plain-ints
        return T.min <= min(candidates) and max(candidates) <= T.max  # label: plain-range
    return False  # label: plain-other


def _candidates(candidates, T) -> tuple:
    """The candidates as non-NaN values of ``T``, strictly increasing, at least one."""
    # an immutable copy (empty for anything else): the bulk checks read the tuple they return
    frozen = tuple(candidates) if type_is(candidates, list, tuple) else ()  # label: snapshot
    increasing = map(operator.lt, frozen, itertools.islice(frozen, 1, None))  # label: pairs
    if _plain_values(frozen, T) and all(increasing):  # label: candidates-fast
        return frozen  # label: candidates-fast-frozen
    candidates = exact_argument(candidates, "candidates", MakeTransformationError)
    candidates = sequence_parameter(candidates)  # label: candidates-array
    if not type_is(candidates, list, tuple):  # label: candidates-sequence
        raise type_mismatch(MakeTransformationError)(
            f"must be a list of values of {T}, got {shown(candidates)}", parameter="candidates"
        )
    if not candidates:  # label: candidates-empty
        raise MakeTransformationError("candidates must be non-empty", parameter="candidates")
    values = [
        carrier_constant(candidate, T) for candidate in candidates
    ]  # label: candidates-values
    for index, value in enumerate(values):
        if value is None or (T.is_float and math.isnan(value)):  # label: candidates-type
            raise type_mismatch(MakeTransformationError)(
                f"candidate {index} ({shown(candidates[index])}) is not a non-NaN value of {T}",
                parameter="candidates",
            )
    for index in range(1, len(values)):
        if not values[index - 1] < values[index]:  # label: candidates-increasing
            raise MakeTransformationError(
                "candidates must be non-null and strictly increasing: candidate "
                f"{index - 1} ({shown(values[index - 1])}) is not below candidate {index} "
                f"({shown(values[index])})",
                parameter="candidates",
            )
    return tuple(values)  # label: candidates-frozen


def _alpha(alpha) -> float:
    """``alpha`` as a Python float (an ``int`` becomes the float of its value)."""
    alpha = exact_argument(alpha, "alpha", MakeTransformationError)
    if type(alpha) is int and alpha in (0, 1):
        return float(alpha)  # label: alpha-int
    if type(alpha) is not float:  # label: alpha-type
        raise type_mismatch(MakeTransformationError)(
            f"must be a float in (0, 1), got {shown(alpha)}", parameter="alpha"
        )
    return alpha


# proof: end arguments


# proof: begin constructor
@certified
def make_quantile_score_candidates(input_domain, input_metric, candidates, alpha) -> Transformation:
    """Score each candidate against the ``alpha``-quantile of the data (lower is closer);
    stability ``d_in -> (d_in // 2) * den`` with a known size, ``d_in * max(num, den - num)``
    without, to the L-infinity distance between score vectors."""
    element = dataset_input(input_domain, input_metric)  # label: dataset-input
    T = element.T
    if not T.is_numeric:  # label: numeric
        raise MakeTransformationError(
            f"elements must be of a numeric type, not {T}", parameter="input_domain"
        )
    if T.is_float and element.nan:  # label: no-nan
        raise MakeTransformationError(
            "input_domain members must have non-nan elements", parameter="input_domain"
        )
    candidates = _candidates(candidates, T)  # label: candidates
    alpha = _alpha(alpha)  # label: alpha
    size = input_domain.size
    num, den, limit = score_constants(size, alpha)  # label: constants
    weight_lt, weight_gt = den - num, num  # label: weights

    def function(data):
        lt, gt = candidate_counts(data, candidates, T)  # label: counts
        return [
            abs(weight_lt * min(below, limit) - weight_gt * min(above, limit))  # label: score
            for below, above in zip(lt, gt)
        ]

    def stability_map(d_in):
        if size is not None:
            d_out = (d_in // 2) * den  # label: map-sized
        else:
            d_out = d_in * max(num, den - num)  # label: map-unsized
        if d_out > U64_MAX:  # label: map-checked
            raise ArithmeticOverflowError(
                f"the output distance {shown(d_out)} is not a value of u64", parameter="d_in"
            )
        return d_out

    return Transformation(
        input_domain=input_domain,
        output_domain=vector_domain(  # label: output-domain
            atom_domain(T="u64"), size=len(candidates)
        ),
        function=function,
        input_metric=input_metric,
        output_metric=linf_distance(T="u64"),  # label: output-metric
        stability_map=stability_map,
    )


# proof: end constructor


then_quantile_score_candidates = partial_constructor(make_quantile_score_candidates)
