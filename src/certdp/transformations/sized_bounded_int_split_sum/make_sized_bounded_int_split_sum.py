"""``make_sized_bounded_int_split_sum``: the split saturating sum of ``size`` integers.

Guarantee: the result does not depend on the order of the records, and
``d_in -> floor(d_in / 2) * (upper - lower)`` is a valid stability map from the symmetric
distance to the absolute distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.metrics import symmetric_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.integer_summation import (
    checked_size,
    integer_bounds,
    integer_type,
    sized_integer_sum,
    split_saturating_sum,
)

__all__ = ["make_sized_bounded_int_split_sum"]


# proof: begin constructor
@certified
def make_sized_bounded_int_split_sum(size, bounds, T=None) -> Transformation:
    """Split saturating sum of ``size`` integers of type ``T`` in ``bounds = (lower, upper)``.
    Stability: ``floor(d_in / 2) * (upper - lower)``."""
    T = integer_type(T, bounds)  # label: type
    bounds = integer_bounds(bounds, T)  # label: bounds
    size = checked_size(size)  # label: size

    def function(data):
        return split_saturating_sum(data, T)  # label: function

    return sized_integer_sum(size, bounds, T, function, symmetric_distance())  # label: shape


# proof: end constructor
