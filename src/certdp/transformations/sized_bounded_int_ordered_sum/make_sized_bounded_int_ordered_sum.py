"""``make_sized_bounded_int_ordered_sum``: the saturating left-to-right sum of ``size``
ordered integers.

Guarantee: under the insert-delete distance, ``d_in -> floor(d_in / 2) * (upper - lower)`` is
a valid stability map to the absolute distance, although saturation makes the sum depend on
the order of the records.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import atom_domain
from certdp.core.metrics import absolute_distance, insert_delete_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.integer_summation import (
    bound_range,
    bounded_vector_domain,
    checked_size,
    integer_bounds,
    integer_type,
    ordered_saturating_sum,
    scaled_distance,
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
    span = bound_range(bounds, T)  # label: range
    input_domain = bounded_vector_domain(bounds, T, size)  # label: input-domain

    def function(data):
        return ordered_saturating_sum(data, T)  # label: function

    def stability_map(d_in):
        return scaled_distance(d_in // 2, span, T)  # label: stability-map

    return Transformation(
        input_domain=input_domain,
        output_domain=atom_domain(T=T),  # label: output-domain
        function=function,
        input_metric=insert_delete_distance(),  # label: input-metric
        output_metric=absolute_distance(T),
        stability_map=stability_map,
    )


# proof: end constructor
