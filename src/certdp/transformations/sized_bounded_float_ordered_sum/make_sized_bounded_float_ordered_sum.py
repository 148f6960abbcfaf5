"""``make_sized_bounded_float_ordered_sum``: the saturating float sum of ``size`` ordered records.

Guarantee: every addition saturates at the finite range of ``T`` instead of overflowing, and
``d_in -> floor(d_in / 2) * (U - L) + relaxation`` (rounded up) is a valid stability map from
the insert-delete distance to the absolute distance.  The constructor refuses where no such
map is proven: a pairwise sum that could saturate with bounds of both signs.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.metrics import insert_delete_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.float_summation import (
    checked_size,
    float_bounds,
    float_sum_transformation,
    parse_summation,
    refuse_unsound_saturation,
    saturating_float_sum,
    sized_stability_map,
)

__all__ = ["make_sized_bounded_float_ordered_sum"]


# proof: begin constructor
@certified
def make_sized_bounded_float_ordered_sum(size, bounds, S="Pairwise<T>") -> Transformation:
    """Sum ``size`` ordered floats in ``bounds = (L, U)`` with the strategy ``S``, saturating
    at ``T``'s finite range.  Stability: ``floor(d_in / 2) * (U - L) + relaxation``."""
    summation = parse_summation(S, bounds)  # label: strategy
    lower, upper = float_bounds(bounds, summation)  # label: bounds
    size = checked_size(size)  # label: size
    stability_map = sized_stability_map(summation, size, lower, upper)  # label: map
    refuse_unsound_saturation(summation, size, lower, upper)  # label: saturation-refusal

    def function(data):
        return saturating_float_sum(summation, data)  # label: function

    return float_sum_transformation(  # label: shape
        summation, (lower, upper), size, function, insert_delete_distance(), stability_map
    )


# proof: end constructor
