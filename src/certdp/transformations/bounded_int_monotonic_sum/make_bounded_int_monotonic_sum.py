"""``make_bounded_int_monotonic_sum``: the saturating sum of integers whose bounds share a sign.

Guarantee: with ``lower`` and ``upper`` of one sign, every input vector's saturating sum is
its exact sum clamped to ``T``'s range, so it does not depend on the order of the records,
and ``d_in -> d_in * max(|lower|, upper)`` is a valid stability map from the symmetric
distance to the absolute distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.metrics import symmetric_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.integer_summation import (
    integer_bounds,
    integer_type,
    monotonic_saturating_sum,
    require_one_sign,
    unsized_integer_sum,
)

__all__ = ["make_bounded_int_monotonic_sum"]


# proof: begin constructor
@certified
def make_bounded_int_monotonic_sum(bounds, T=None) -> Transformation:
    """Saturating sum of integers of type ``T`` in ``bounds = (lower, upper)``, which must
    share a sign (zero counts as either).  Stability: ``d_in * max(|lower|, upper)``."""
    T = integer_type(T, bounds)  # label: type
    bounds = integer_bounds(bounds, T)  # label: bounds
    require_one_sign(bounds)  # label: signs-check

    def function(data):
        return monotonic_saturating_sum(data, T)  # label: function

    return unsized_integer_sum(bounds, T, function, symmetric_distance())  # label: shape


# proof: end constructor
