"""``make_bounded_int_split_sum``: the saturating sums of the negative and of the positive
integers, added with saturation.

Guarantee: the result does not depend on the order of the records, and
``d_in -> d_in * max(|lower|, upper)`` is a valid stability map from the symmetric distance
to the absolute distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.metrics import symmetric_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.integer_summation import (
    integer_bounds,
    integer_type,
    split_saturating_sum,
    unsized_integer_sum,
)

__all__ = ["make_bounded_int_split_sum"]


# proof: begin constructor
@certified
def make_bounded_int_split_sum(bounds, T=None) -> Transformation:
    """Split saturating sum of integers of type ``T`` in ``bounds = (lower, upper)``.
    Stability: ``d_in * max(|lower|, upper)``."""
    T = integer_type(T, bounds)  # label: type
    bounds = integer_bounds(bounds, T)  # label: bounds

    def function(data):
        return split_saturating_sum(data, T)  # label: function

    return unsized_integer_sum(bounds, T, function, symmetric_distance())  # label: shape


# proof: end constructor
