"""``make_sized_bounded_float_ordered_sum``: the saturating float sum of ``size`` ordered records.

Guarantee: every addition saturates at the finite range of ``T`` instead of overflowing, and
``d_in -> floor(d_in / 2) * (U - L) + relaxation`` (rounded up) is a valid stability map from
the insert-delete distance to the absolute distance.  The constructor refuses where no such
map is proven: a pairwise sum that could saturate with bounds of both signs.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.metrics import absolute_distance, insert_delete_distance
from certdp.core.transformation import Transformation
from certdp.numeric import inf_add, inf_cast, inf_mul, inf_sub
from certdp.transformations._summation.float_summation import (
    checked_size,
    float_bounds,
    parse_summation,
    refuse_unsound_saturation,
    saturating_float_sum,
    sum_relaxation,
)

__all__ = ["make_sized_bounded_float_ordered_sum"]


# proof: begin constructor
@certified
def make_sized_bounded_float_ordered_sum(size, bounds, S="Pairwise<T>") -> Transformation:
    """Sum ``size`` ordered floats in ``bounds = (L, U)`` with the strategy ``S``, saturating
    at ``T``'s finite range.  Stability: ``floor(d_in / 2) * (U - L) + relaxation``."""
    summation = parse_summation(S, bounds)  # label: strategy
    T = summation.T
    lower, upper = float_bounds(bounds, summation)  # label: bounds
    size = checked_size(size)  # label: size
    span = inf_sub(upper, lower, T)  # label: span
    relaxation = sum_relaxation(summation, size, lower, upper)  # label: relaxation
    refuse_unsound_saturation(summation, size, lower, upper)  # label: saturation-refusal

    def function(data):
        return saturating_float_sum(summation, data)  # label: function

    def stability_map(d_in):
        changed = inf_cast(d_in // 2, T)  # label: map-pairs
        return inf_add(inf_mul(changed, span, T), relaxation, T)  # label: stability-map

    return Transformation(
        input_domain=vector_domain(  # label: input-domain
            atom_domain(bounds=(lower, upper), T=T), size=size
        ),
        output_domain=atom_domain(T=T, nan=False),  # label: output-domain
        function=function,
        input_metric=insert_delete_distance(),  # label: input-metric
        output_metric=absolute_distance(T),
        stability_map=stability_map,
    )


# proof: end constructor
