"""``make_sized_bounded_int_checked_sum``: the exact sum of ``size`` integers in ``bounds``.

Guarantee: the constructor refuses (``MakeTransformationError``) whenever a sum of ``size``
values in ``bounds`` could overflow ``T``; otherwise the function is the exact sum, and
``d_in -> floor(d_in / 2) * (upper - lower)`` is a valid stability map from the symmetric
distance to the absolute distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import atom_domain
from certdp.core.errors import MakeTransformationError
from certdp.core.metrics import absolute_distance, symmetric_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.integer_summation import (
    bound_range,
    bounded_vector_domain,
    can_int_sum_overflow,
    checked_size,
    exact_sum,
    integer_bounds,
    integer_type,
    scaled_distance,
)

__all__ = ["make_sized_bounded_int_checked_sum"]


# proof: begin constructor
@certified
def make_sized_bounded_int_checked_sum(size, bounds, T=None) -> Transformation:
    """Sum ``size`` integers of type ``T`` in ``bounds = (lower, upper)`` exactly.

    Refused when ``max(|lower|, upper) * size`` (or ``size``) is not a value of ``T``.
    Stability: ``floor(d_in / 2) * (upper - lower)``.
    """
    T = integer_type(T, bounds)  # label: type
    bounds = integer_bounds(bounds, T)  # label: bounds
    size = checked_size(size)  # label: size
    if can_int_sum_overflow(size, bounds, T):  # label: overflow-refusal
        raise MakeTransformationError(
            f"a sum of {size} values in {list(bounds)} may overflow {T}: choose tighter bounds "
            "or a wider type",
            parameter="bounds",
        )
    span = bound_range(bounds, T)  # label: range
    input_domain = bounded_vector_domain(bounds, T, size)  # label: input-domain

    def function(data):
        return exact_sum(data)  # label: function

    def stability_map(d_in):
        return scaled_distance(d_in // 2, span, T)  # label: stability-map

    return Transformation(
        input_domain=input_domain,
        output_domain=atom_domain(T=T),  # label: output-domain
        function=function,
        input_metric=symmetric_distance(),  # label: input-metric
        output_metric=absolute_distance(T),
        stability_map=stability_map,
    )


# proof: end constructor
