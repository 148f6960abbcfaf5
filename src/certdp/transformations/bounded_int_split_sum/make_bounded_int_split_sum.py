"""``make_bounded_int_split_sum``: the saturating sums of the negative and of the positive
integers, added with saturation.

Guarantee: the result does not depend on the order of the records, and
``d_in -> d_in * max(|lower|, upper)`` is a valid stability map from the symmetric distance
to the absolute distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import atom_domain
from certdp.core.metrics import absolute_distance, symmetric_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.integer_summation import (
    bound_magnitude,
    bounded_vector_domain,
    integer_bounds,
    integer_type,
    scaled_distance,
    split_saturating_sum,
)

__all__ = ["make_bounded_int_split_sum"]


# proof: begin constructor
@certified
def make_bounded_int_split_sum(bounds, T=None) -> Transformation:
    """Split saturating sum of integers of type ``T`` in ``bounds = (lower, upper)``.
    Stability: ``d_in * max(|lower|, upper)``."""
    T = integer_type(T, bounds)  # label: type
    bounds = integer_bounds(bounds, T)  # label: bounds
    input_domain = bounded_vector_domain(bounds, T, None)  # label: input-domain
    magnitude = bound_magnitude(bounds, T)  # label: magnitude

    def function(data):
        return split_saturating_sum(data, T)  # label: function

    def stability_map(d_in):
        return scaled_distance(d_in, magnitude, T)  # label: stability-map

    return Transformation(
        input_domain=input_domain,
        output_domain=atom_domain(T=T),  # label: output-domain
        function=function,
        input_metric=symmetric_distance(),  # label: input-metric
        output_metric=absolute_distance(T),
        stability_map=stability_map,
    )


# proof: end constructor
