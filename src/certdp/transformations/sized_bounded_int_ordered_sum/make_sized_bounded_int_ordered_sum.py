"""``make_sized_bounded_int_ordered_sum``: the saturating left-to-right sum of ``size``
ordered integers.

Guarantee: under the insert-delete distance, ``d_in -> floor(d_in / 2) * (upper - lower)`` is
a valid stability map to the absolute distance, although saturation makes the sum depend on
the order of the records.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.metrics import insert_delete_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.integer_summation import (
    checked_size,
    integer_bounds,
    integer_type,
    ordered_saturating_sum,
    sized_integer_sum,
)

__all__ = ["make_sized_bounded_int_ordered_sum"]


# proof: begin constructor
@certified
def make_sized_bounded_int_ordered_sum(size, bounds, T=None) -> Transformation:
    """Saturating left-to-right sum of ``size`` integers of type ``T`` in
    ``bounds = (lower, upper)``, under the insert-delete distance.
    Stability: ``floor(d_in / 2) * (upper - lower)``."""
    T = integer_type(T, bounds)  # label: type
    bounds = integer_bounds(bounds, T)  # label: bounds
    size = checked_size(size)  # label: size

    def function(data):
        return ordered_saturating_sum(data, T)  # label: function

    return sized_integer_sum(size, bounds, T, function, insert_delete_distance())  # label: shape


# proof: end constructor
