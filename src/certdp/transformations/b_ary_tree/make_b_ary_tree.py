"""``make_b_ary_tree``: a vector of integer counts expanded into a complete b-ary tree whose
every branch holds the sum of the leaves beneath it, stored layer by layer from the root.

Guarantee (make_b_ary_tree.tex): with ``L`` the number of layers (the least ``k >= 0`` with
``b**k >= leaf_count``, plus one) and ``S`` the sum over the layers of ``min(b**j, leaf_count)``
(``j = 0 .. L-1``), the map ``d_in -> ceil(d_in * L)`` is valid from L1 to L1, and
``d_in -> ceil(d_in * sqrt(S))`` from L2 to L2 (both computed exactly, checked against the
metric's type).  Each branch is the exact sum of its leaves, saturated at the type's limits.

OpenDP 0.16 uses ``d_in * L`` for L2 as well; that is not a valid L2 map (all 16 leaves of a
binary tree moved by one: input distance 4, output distance sqrt(496) > 20), so certdp does not.
OpenDP also wraps a branch's sum on overflow; certdp saturates it.
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.contracts import certified
from certdp.core.conversion import exact_argument
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, vector_domain
from certdp.core.errors import (
    ArithmeticOverflowError,
    MakeTransformationError,
    shown,
    type_mismatch,
)
from certdp.core.exact_type import type_is
from certdp.core.metrics import L1Distance, L2Distance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.transformations._counting import records

__all__ = ["make_b_ary_tree", "then_b_ary_tree", "layer_count", "MAX_LEAF_COUNT"]

# proof: begin arguments
#: The largest leaf_count: the tree is held in memory (fewer than 2 * leaf_count branches).
MAX_LEAF_COUNT = 1 << 24  # label: max-leaf-count


def layer_count(leaf_count: int, branching_factor: int) -> int:
    """The number of layers of the complete tree over ``leaf_count`` leaves: the least ``k >= 0``
    with ``branching_factor**k >= leaf_count``, plus one (exact integer arithmetic)."""
    k, width = 0, 1
    while width < leaf_count:  # label: layers-loop
        k, width = k + 1, width * branching_factor
    return k + 1  # label: layers


def _positive_integer(value, name: str, least: int) -> int:
    """``value`` as a Python int in ``[least, MAX]``; a typed refusal naming ``name`` otherwise
    (``MAX`` is ``MAX_LEAF_COUNT`` for ``leaf_count``, ``2**32 - 1`` (OpenDP's u32) else)."""
    value = exact_argument(value, name, MakeTransformationError)
    if type(value) is not int:  # label: integer
        raise type_mismatch(MakeTransformationError)(
            f"must be an integer, got {shown(value)}", parameter=name
        )
    largest = MAX_LEAF_COUNT if name == "leaf_count" else (1 << 32) - 1
    if not least <= value <= largest:  # label: range
        raise MakeTransformationError(
            f"must be at least {least} and at most {largest}, got {value}", parameter=name
        )
    return value


def _counts_input(input_domain, input_metric):
    """The integer carrier of the counts and the metric, or a typed refusal: ``input_domain`` a
    vector of integer atoms, ``input_metric`` the L1 or L2 distance of an integer type."""
    if type(input_domain) is not VectorDomain or type(input_domain.element_domain) is not (
        AtomDomain
    ):  # label: domain-vector
        raise MakeTransformationError(
            f"must be a vector_domain of atom_domain, got {shown(input_domain)}",
            parameter="input_domain",
        )
    T = input_domain.element_domain.T
    if not T.is_integer:  # label: domain-integer
        raise MakeTransformationError(
            f"the counts must be of an integer type, not {T}", parameter="input_domain"
        )
    if not type_is(input_metric, L1Distance, L2Distance) or not input_metric.T.is_integer:
        raise MakeTransformationError(  # label: metric
            f"must be l1_distance or l2_distance of an integer type, got {shown(input_metric)}",
            parameter="input_metric",
        )
    return T


# proof: end arguments


# proof: begin constructor
@certified
def make_b_ary_tree(input_domain, input_metric, leaf_count, branching_factor) -> Transformation:
    """The complete ``branching_factor``-ary tree over the first ``leaf_count`` counts (missing
    leaves count zero), root first, each branch the sum of its leaves saturated to the counts'
    type; stability ``ceil(d_in * L)`` (L1) and ``ceil(d_in * sqrt(S))`` (L2)."""
    T = _counts_input(input_domain, input_metric)  # label: input
    n = _positive_integer(leaf_count, "leaf_count", 1)  # label: leaf-count
    b = _positive_integer(branching_factor, "branching_factor", 2)  # label: branching
    L = layer_count(n, b)  # label: layer-count
    S = sum(min(b**j, n) for j in range(L))  # label: spread
    Q = input_metric.T

    def function(data):
        leaves = records(data)[:n]  # label: leaves
        layers = [leaves]
        for k in range(L - 2, -1, -1):  # label: branches
            below = layers[0]
            layers.insert(0, [sum(below[j * b : (j + 1) * b]) for j in range(b**k)])
        branches = [min(max(s, T.min), T.max) for layer in layers[:-1] for s in layer]
        return branches + leaves  # label: output

    def stability_map(d_in):
        if d_in == math.inf:  # label: map-infinite
            raise ArithmeticOverflowError(
                f"infinity is not a value of {Q}, the type of the output distance",
                parameter="d_in",
            )
        d = Fraction(d_in)  # label: map-exact
        if type(input_metric) is L1Distance:
            d_out = math.ceil(d * L)  # label: map-l1
        else:
            squared = math.ceil(d * d * S)  # label: map-l2-square
            d_out = math.isqrt(squared)  # label: map-l2
            d_out += d_out * d_out < squared  # label: map-l2-ceil
        if d_out > Q.max:  # label: map-checked
            raise ArithmeticOverflowError(
                f"{shown(d_in)} gives an output distance above {Q.max}, the largest value of "
                f"{Q}, the type of the output distance",
                parameter="d_in",
            )
        return d_out

    return Transformation(
        input_domain=input_domain,
        output_domain=vector_domain(atom_domain(T=T)),  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=input_metric,  # label: output-metric
        stability_map=stability_map,
    )


# proof: end constructor


then_b_ary_tree = partial_constructor(make_b_ary_tree)
