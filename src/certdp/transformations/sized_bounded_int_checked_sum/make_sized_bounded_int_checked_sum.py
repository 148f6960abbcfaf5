"""``make_sized_bounded_int_checked_sum``: the exact sum of ``size`` integers in ``bounds``.

Guarantee: the constructor refuses (``MakeTransformationError``) whenever a sum of ``size``
values in ``bounds`` could overflow ``T``; otherwise the function is the exact sum, and
``d_in -> floor(d_in / 2) * (upper - lower)`` is a valid stability map from the symmetric
distance to the absolute distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.errors import MakeTransformationError, shown
from certdp.core.metrics import symmetric_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.integer_summation import (
    can_int_sum_overflow,
    checked_size,
    exact_sum,
    integer_bounds,
    integer_type,
    sized_integer_sum,
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
            f"a sum of {shown(size)} values in {shown(list(bounds))} may overflow {T}: choose tighter bounds "
            "or a wider type",
            parameter="bounds",
        )

    def function(data):
        return exact_sum(data)  # label: function

    return sized_integer_sum(size, bounds, T, function, symmetric_distance())  # label: shape


# proof: end constructor
