"""``make_sized_bounded_int_monotonic_sum``: the saturating sum of ``size`` integers whose
bounds share a sign.

Guarantee: with ``lower`` and ``upper`` of one sign, every input vector's saturating sum is
its exact sum clamped to ``T``'s range, and ``d_in -> floor(d_in / 2) * (upper - lower)`` is a
valid stability map from the symmetric distance to the absolute distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.metrics import symmetric_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.integer_summation import (
    checked_size,
    integer_bounds,
    integer_type,
    monotonic_saturating_sum,
    require_one_sign,
    sized_integer_sum,
)

__all__ = ["make_sized_bounded_int_monotonic_sum"]


# proof: begin constructor
@certified
def make_sized_bounded_int_monotonic_sum(size, bounds, T=None) -> Transformation:
    """Saturating sum of ``size`` integers of type ``T`` in ``bounds = (lower, upper)``, which
    must share a sign.  Stability: ``floor(d_in / 2) * (upper - lower)``."""
    T = integer_type(T, bounds)  # label: type
    bounds = integer_bounds(bounds, T)  # label: bounds
    size = checked_size(size)  # label: size
    require_one_sign(bounds)  # label: signs-check

    def function(data):
        return monotonic_saturating_sum(data, T)  # label: function

    return sized_integer_sum(size, bounds, T, function, symmetric_distance())  # label: shape


# proof: end constructor
