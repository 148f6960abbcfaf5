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
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.metrics import absolute_distance, symmetric_distance
from certdp.core.transformation import Transformation
from certdp.numeric import inf_add, inf_cast, inf_mul, inf_sub
from certdp.transformations._summation.float_summation import (
    as_float_array,
    bound_magnitude,
    checked_size,
    float_bounds,
    float_sum,
    parse_summation,
    refuse_overflow,
    sum_relaxation,
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
    T = summation.T
    lower, upper = float_bounds(bounds, summation)  # label: bounds
    size_limit = checked_size(size_limit, "size_limit")  # label: size-limit
    refuse_overflow(summation, size_limit, lower, upper)  # label: overflow-refusal
    per_record = max(inf_sub(upper, lower, T), bound_magnitude(lower, upper))  # label: ideal
    relaxation = sum_relaxation(summation, size_limit, lower, upper)  # label: relaxation

    def function(data):
        values = as_float_array(data, summation)
        if len(values) > size_limit:
            values = values[uniform_subset(len(values), size_limit)]  # label: truncate
        return float_sum(summation, values)  # label: function

    def stability_map(d_in):
        return inf_add(  # label: stability-map
            inf_mul(inf_cast(d_in, T), per_record, T), relaxation, T
        )

    return Transformation(
        input_domain=vector_domain(atom_domain(bounds=(lower, upper), T=T)),  # label: input-domain
        output_domain=atom_domain(T=T, nan=False),  # label: output-domain
        function=function,
        input_metric=symmetric_distance(),  # label: input-metric
        output_metric=absolute_distance(T),
        stability_map=stability_map,
    )


# proof: end constructor
