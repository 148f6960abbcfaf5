"""``make_bounded_int_ordered_sum``: the saturating left-to-right sum of ordered integers.

Guarantee: under the insert-delete distance (neighbouring datasets keep the order of their
common records), ``d_in -> d_in * max(|lower|, upper)`` is a valid stability map to the
absolute distance, although saturation makes the sum depend on the order of the records.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.metrics import insert_delete_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.integer_summation import (
    integer_bounds,
    integer_type,
    ordered_saturating_sum,
    unsized_integer_sum,
)

__all__ = ["make_bounded_int_ordered_sum"]


# proof: begin constructor
@certified
def make_bounded_int_ordered_sum(bounds, T=None) -> Transformation:
    """Saturating left-to-right sum of integers of type ``T`` in ``bounds = (lower, upper)``,
    under the insert-delete distance.  Stability: ``d_in * max(|lower|, upper)``."""
    T = integer_type(T, bounds)  # label: type
    bounds = integer_bounds(bounds, T)  # label: bounds

    def function(data):
        return ordered_saturating_sum(data, T)  # label: function

    return unsized_integer_sum(bounds, T, function, insert_delete_distance())  # label: shape


# proof: end constructor
