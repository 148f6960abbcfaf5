"""``make_bounded_float_ordered_sum``: the saturating float sum of the first ``size_limit``
ordered records.

Guarantee: the function sums the first ``size_limit`` records in their order, every addition
saturating at the finite range of ``T``, and ``d_in -> d_in * max(U - L, |L|, U) + relaxation``
(rounded up) is a valid stability map from the insert-delete distance to the absolute
distance.  The constructor refuses where no such map is proven: a pairwise sum that could
saturate with bounds of both signs.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.metrics import insert_delete_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.float_summation import (
    as_float_array,
    checked_size,
    float_bounds,
    float_sum_transformation,
    parse_summation,
    refuse_unsound_saturation,
    saturating_float_sum,
    unsized_stability_map,
)

__all__ = ["make_bounded_float_ordered_sum"]


# proof: begin constructor
@certified
def make_bounded_float_ordered_sum(size_limit, bounds, S="Pairwise<T>") -> Transformation:
    """Sum the first ``size_limit`` floats in ``bounds = (L, U)``, in order, with the strategy
    ``S``, saturating at ``T``'s finite range.
    Stability: ``d_in * max(U - L, |L|, U) + relaxation``."""
    summation = parse_summation(S, bounds)  # label: strategy
    lower, upper = float_bounds(bounds, summation)  # label: bounds
    size_limit = checked_size(size_limit, "size_limit")  # label: size-limit
    stability_map = unsized_stability_map(summation, size_limit, lower, upper)  # label: map
    refuse_unsound_saturation(summation, size_limit, lower, upper)  # label: saturation-refusal

    def function(data):
        # any sequence of records (a deque cannot be sliced): as an array of T, then the prefix
        records = as_float_array(data, summation)[:size_limit]
        return saturating_float_sum(summation, records)  # label: function

    return float_sum_transformation(  # label: shape
        summation, (lower, upper), None, function, insert_delete_distance(), stability_map
    )


# proof: end constructor
