"""``make_sum``: the sum of bounded numbers, by the cheapest specialised sum that is sound.

Guarantee: for a vector domain of bounded integers or floats under the symmetric or the
insert-delete distance, ``make_sum`` returns a specialised sum (or one behind a
1-stable reordering or reinterpretation of the metric) whose stability map is valid for the
given domain and metric:

* integers, symmetric distance: the checked sum if the size is known and the sum cannot
  overflow, else the monotonic sum if the bounds share a sign, else the split sum;
* integers, insert-delete distance: the checked sum if the size is known and the sum cannot
  overflow, else the ordered sum;
* floats: the pairwise checked sum if it cannot overflow, else the pairwise ordered sum (an
  unknown size is capped at ``2**20`` records).
"""

from __future__ import annotations

import math

import numpy as np

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, Domain, VectorDomain
from certdp.core.errors import DomainMismatchError, MakeTransformationError, shown, type_mismatch
from certdp.core.metrics import InsertDeleteDistance, Metric, SymmetricDistance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.transformations._summation.integer_summation import (
    can_int_sum_overflow,
    signs_agree,
)

__all__ = ["make_sum", "then_sum", "DEFAULT_SIZE_LIMIT"]

# proof: begin constructor
#: The records a float sum of unknown size keeps at most (OpenDP's default).
DEFAULT_SIZE_LIMIT = 1 << 20  # label: default-size-limit


@certified
def make_sum(input_domain, input_metric) -> Transformation:
    """Sum a vector of bounded numbers with the cheapest specialised sum that is sound.

    Integers, symmetric distance: the checked sum if the size is known and the sum cannot
    overflow, else the monotonic sum if the bounds share a sign, else the split sum.
    Integers, insert-delete distance: the checked sum if sized and safe, else the ordered sum.
    Floats: the pairwise checked sum if it cannot overflow, else the pairwise ordered sum
    (after sorting the records under the symmetric distance); an unknown size is capped at
    ``2**20`` records.  The stability map is the chosen sum's.
    """
    if not isinstance(input_domain, VectorDomain) or not isinstance(  # label: domain-check
        input_domain.element_domain, AtomDomain
    ):
        error = (  # OpenDP raises TypeError for what is not a domain at all
            MakeTransformationError
            if isinstance(input_domain, Domain)
            else type_mismatch(MakeTransformationError)
        )
        raise error(
            f"must be vector_domain(atom_domain(bounds=...)), got {shown(input_domain)}",
            parameter="input_domain",
        )
    if not isinstance(input_metric, (SymmetricDistance, InsertDeleteDistance)):
        error = (
            MakeTransformationError
            if isinstance(input_metric, Metric)
            else type_mismatch(MakeTransformationError)
        )
        raise error(  # label: metric-check
            f"must be symmetric_distance() or insert_delete_distance(), got {shown(input_metric)}",
            parameter="input_metric",
        )
    element_domain = input_domain.element_domain
    if not element_domain.T.is_numeric:  # label: numeric-check
        raise MakeTransformationError(
            f"elements must be numbers, not {element_domain.T}", parameter="input_domain"
        )
    if element_domain.bounds is None:  # label: bounds-check
        raise MakeTransformationError(
            "must be bounded: build atom_domain(bounds=(lower, upper)) or clamp the data "
            "first with then_clamp(bounds)",
            parameter="input_domain",
        )
    ordered = isinstance(input_metric, InsertDeleteDistance)
    bounds, T, size = element_domain.bounds, element_domain.T, input_domain.size
    if T.is_integer:
        chosen = _integer_sum(size, bounds, T, ordered)  # label: integer-dispatch
    else:
        chosen = _float_sum(size, bounds, T, ordered)  # label: float-dispatch
    if chosen.input_domain != input_domain or chosen.input_metric != input_metric:
        raise DomainMismatchError(  # label: same-space
            f"internal: the chosen sum accepts {chosen.input_domain} under {chosen.input_metric}",
            parameter="input_domain",
        )
    return chosen


def _integer_sum(size, bounds, T, ordered) -> Transformation:
    from certdp.transformations.bounded_int_monotonic_sum import make_bounded_int_monotonic_sum
    from certdp.transformations.bounded_int_ordered_sum import make_bounded_int_ordered_sum
    from certdp.transformations.bounded_int_split_sum import make_bounded_int_split_sum
    from certdp.transformations.sized_bounded_int_checked_sum import (
        make_sized_bounded_int_checked_sum,
    )
    from certdp.transformations.sized_bounded_int_monotonic_sum import (
        make_sized_bounded_int_monotonic_sum,
    )
    from certdp.transformations.sized_bounded_int_ordered_sum import (
        make_sized_bounded_int_ordered_sum,
    )
    from certdp.transformations.sized_bounded_int_split_sum import (
        make_sized_bounded_int_split_sum,
    )

    if size is not None and not can_int_sum_overflow(size, bounds, T):  # label: int-checked
        checked = make_sized_bounded_int_checked_sum(size, bounds, T.name)
        return _reading_order_as_multiset(checked) if ordered else checked
    if ordered:
        if size is not None:
            return make_sized_bounded_int_ordered_sum(size, bounds, T.name)  # label: int-ordered
        return make_bounded_int_ordered_sum(bounds, T.name)  # label: int-ordered-unsized
    if signs_agree(bounds):
        if size is not None:
            return make_sized_bounded_int_monotonic_sum(size, bounds, T.name)  # label: int-mono
        return make_bounded_int_monotonic_sum(bounds, T.name)  # label: int-mono-unsized
    if size is not None:
        return make_sized_bounded_int_split_sum(size, bounds, T.name)  # label: int-split
    return make_bounded_int_split_sum(bounds, T.name)  # label: int-split-unsized


def _float_sum(size, bounds, T, ordered) -> Transformation:
    from certdp.transformations._summation.float_summation import can_float_sum_overflow
    from certdp.transformations.bounded_float_checked_sum import make_bounded_float_checked_sum
    from certdp.transformations.bounded_float_ordered_sum import make_bounded_float_ordered_sum
    from certdp.transformations.sized_bounded_float_checked_sum import (
        make_sized_bounded_float_checked_sum,
    )
    from certdp.transformations.sized_bounded_float_ordered_sum import (
        make_sized_bounded_float_ordered_sum,
    )

    S = f"Pairwise<{T.name}>"
    records = DEFAULT_SIZE_LIMIT if size is None else size  # label: size-limit
    if not can_float_sum_overflow(records, bounds, S):  # label: float-checked
        if size is None:
            checked = make_bounded_float_checked_sum(records, bounds, S=S)
        else:
            checked = make_sized_bounded_float_checked_sum(size, bounds, S=S)
        return _reading_order_as_multiset(checked) if ordered else checked
    if size is None:
        saturating = make_bounded_float_ordered_sum(records, bounds, S=S)  # label: float-ordered
    else:
        saturating = make_sized_bounded_float_ordered_sum(size, bounds, S=S)
    return saturating if ordered else _in_canonical_order(saturating)  # label: float-sorted


def _reading_order_as_multiset(inner: Transformation) -> Transformation:
    """``inner`` (under the symmetric distance) accepting the insert-delete distance: the
    identity is 1-stable from the insert-delete to the symmetric distance."""
    return Transformation(
        input_domain=inner.input_domain,
        output_domain=inner.output_domain,
        function=inner.function,  # label: identity-function
        input_metric=InsertDeleteDistance(),
        output_metric=inner.output_metric,
        stability_map=inner.map,  # label: identity-map
    )


def _in_canonical_order(inner: Transformation) -> Transformation:
    """``inner`` (under the insert-delete distance) after sorting the records: sorting is
    1-stable from the symmetric to the insert-delete distance."""

    def function(data):
        return inner.function(canonical_order(data))  # label: sorted-function

    return Transformation(
        input_domain=inner.input_domain,
        output_domain=inner.output_domain,
        function=function,
        input_metric=SymmetricDistance(),
        output_metric=inner.output_metric,
        stability_map=inner.map,  # label: sorted-map
    )


def canonical_order(data):
    """The records of NaN-free float ``data`` sorted by value, ``-0.0`` before ``+0.0``: two
    records share a place in this order only if they are the same record."""
    if isinstance(data, np.ndarray):
        return data[np.lexsort((~np.signbit(data), data))]  # label: sort-array
    return sorted(
        data, key=lambda record: (float(record), math.copysign(1.0, record))
    )  # label: sort-list


# proof: end constructor


then_sum = partial_constructor(make_sum)
