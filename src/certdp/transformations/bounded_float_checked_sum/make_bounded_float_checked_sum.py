"""``make_bounded_float_checked_sum``: the float sum of at most ``size_limit`` records.

Guarantee: the constructor refuses (``ArithmeticOverflowError``) whenever a sum of
``size_limit`` values in ``bounds`` could overflow; otherwise the function sums the records
(a uniformly random subset of ``size_limit`` of them, drawn from the OS CSPRNG, when there are
more) with the strategy ``S`` in ``T``, and
``d_in -> d_in * max(U - L, |L|, U) + relaxation`` (rounded up) is a valid stability map from
the symmetric distance to the absolute distance (for the random subset: under the coupling
of the proof).
"""

from __future__ import annotations

import os

import numpy as np

from certdp.contracts import certified
from certdp.core.metrics import symmetric_distance
from certdp.core.transformation import Transformation
from certdp.transformations._summation.float_summation import (
    as_float_array,
    checked_size,
    float_bounds,
    float_sum,
    float_sum_transformation,
    parse_summation,
    refuse_overflow,
    unsized_stability_map,
)

__all__ = ["make_bounded_float_checked_sum", "uniform_subset"]


# proof: begin constructor
def uniform_subset(population: int, chosen: int, random_bytes=os.urandom) -> np.ndarray:
    """The sorted indices of a uniformly random ``chosen``-subset of ``range(population)``.

    Each index gets an independent 64-bit key from ``random_bytes``; the subset is the
    ``chosen`` smallest keys.  Draws in which the ``chosen``-th smallest key ties with a key
    outside the subset are redrawn: that event is invariant under permuting the indices, so
    conditioned on its complement every subset is equally likely.
    """
    if chosen >= population:
        return np.arange(population)
    if chosen == 0:
        return np.arange(0)
    while True:
        keys = np.frombuffer(random_bytes(8 * population), dtype=np.uint64)
        order = np.argpartition(keys, chosen - 1)
        if keys[order[chosen:]].min() > keys[order[chosen - 1]]:  # label: subset-distinct
            return np.sort(order[:chosen])


@certified
def make_bounded_float_checked_sum(size_limit, bounds, S="Pairwise<T>") -> Transformation:
    """Sum at most ``size_limit`` floats in ``bounds = (L, U)`` with the strategy ``S``
    (default: pairwise in the type of the bounds); longer inputs are cut to a uniformly random
    subset.  Stability: ``d_in * max(U - L, |L|, U) + relaxation``."""
    summation = parse_summation(S, bounds)  # label: strategy
    lower, upper = float_bounds(bounds, summation)  # label: bounds
    size_limit = checked_size(size_limit, "size_limit")  # label: size-limit
    refuse_overflow(summation, size_limit, lower, upper)  # label: overflow-refusal
    stability_map = unsized_stability_map(summation, size_limit, lower, upper)  # label: map

    def function(data):
        values = as_float_array(data, summation)
        if len(values) > size_limit:
            values = values[uniform_subset(len(values), size_limit)]  # label: truncate
        return float_sum(summation, values)  # label: function

    return float_sum_transformation(  # label: shape
        summation, (lower, upper), None, function, symmetric_distance(), stability_map
    )


# proof: end constructor
