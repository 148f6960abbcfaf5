"""``make_sized_bounded_float_checked_sum``: the float sum of ``size`` records in ``bounds``.

Guarantee: the constructor refuses (``ArithmeticOverflowError``) whenever a sum of ``size``
values in ``bounds`` could overflow; otherwise the function is the strategy ``S``'s sum in
``T``, and ``d_in -> floor(d_in / 2) * (U - L) + relaxation`` (rounded up) is a valid stability
map from the symmetric distance to the absolute distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.metrics import symmetric_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.float_summation import (
    checked_size,
    float_bounds,
    float_sum,
    float_sum_transformation,
    parse_summation,
    refuse_overflow,
    sized_stability_map,
)

__all__ = ["make_sized_bounded_float_checked_sum"]


# proof: begin constructor
@certified
def make_sized_bounded_float_checked_sum(size, bounds, S="Pairwise<T>") -> Transformation:
    """Sum ``size`` floats in ``bounds = (L, U)`` with the strategy ``S`` (default: pairwise in
    the type of the bounds).  Stability: ``floor(d_in / 2) * (U - L) + relaxation``."""
    summation = parse_summation(S, bounds)  # label: strategy
    lower, upper = float_bounds(bounds, summation)  # label: bounds
    size = checked_size(size)  # label: size
    refuse_overflow(summation, size, lower, upper)  # label: overflow-refusal
    stability_map = sized_stability_map(summation, size, lower, upper)  # label: map

    def function(data):
        return float_sum(summation, data)  # label: function

    return float_sum_transformation(  # label: shape
        summation, (lower, upper), size, function, symmetric_distance(), stability_map
    )


# proof: end constructor
