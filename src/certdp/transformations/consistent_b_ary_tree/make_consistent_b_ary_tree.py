"""``make_consistent_b_ary_tree``: a noisy b-ary tree made consistent (each branch the sum of
its children) by least squares, its leaves returned.

Guarantee (make_consistent_b_ary_tree.tex): for ``b >= 2`` the Function takes a non-empty vector of
integers of type ``TIA`` read as a complete b-ary tree stored root first, layer by layer, whose
last layer may stop early (the missing leaves are zero nodes of zero variance, as are branches
above only missing leaves).  It runs, in the float format ``TOA`` (IEEE, round to nearest
even), OpenDP 0.16's arithmetic step for step: a bottom-up pass weighting each branch against
the sum of its children by inverse variance, then a top-down pass apportioning each parent's
difference among its children in proportion to their variances; it returns the present leaves
(as many as the last layer holds).  Same operations in the same order, so the same numbers.
Postprocessing: no privacy cost.  The padded tree (at most ``b`` times the argument's length)
is held in memory and refused beyond MAX_LENGTH nodes.
"""

from __future__ import annotations

import numpy as np

from certdp.contracts import certified
from certdp.core.errors import FailedFunctionError, MakeTransformationError, shown, type_mismatch
from certdp.core.postprocess import Function
from certdp.transformations._postprocess.arguments import (
    FORMAT,
    MAX_LENGTH,
    integer_vector,
    to_float,
    type_name,
)

__all__ = ["make_consistent_b_ary_tree", "tree_layers"]

# proof: begin consistent
#: The integer types OpenDP 0.16 takes for the tree's nodes.
INPUT_TYPES = ("i32", "i64", "u32", "u64", "usize")


def _nodes(layers: int, b: int) -> int:
    """The number of nodes of a full b-ary tree of ``layers`` layers."""
    return (b**layers - 1) // (b - 1)  # label: nodes


def tree_layers(length: int, b: int) -> int:
    """The number of layers of the complete b-ary tree of ``length >= 1`` nodes: the least
    ``L`` with ``_nodes(L, b) >= length``."""
    layers = 1
    while _nodes(layers, b) < length:  # label: layers
        layers += 1
    return layers


def _branching_factor(value) -> int:
    """``value`` as an int in ``[2, 2**32 - 1]`` (OpenDP's u32, a tree needs two children)."""
    if type(value) is not int:  # label: b-type
        raise type_mismatch(MakeTransformationError)(
            f"must be an integer, got {shown(value)}", parameter="branching_factor"
        )
    if not 2 <= value < 1 << 32:  # label: b-range
        raise MakeTransformationError(
            f"must be at least 2 and at most {(1 << 32) - 1}, got {value}",
            parameter="branching_factor",
        )
    return value


@certified
def make_consistent_b_ary_tree(branching_factor, TIA="int", TOA="float") -> Function:
    """The Function from a noisy complete ``branching_factor``-ary tree of ``TIA`` integers to
    the leaves of its least-squares consistent version, in the float format ``TOA``."""
    b = _branching_factor(branching_factor)  # label: b
    TIA = type_name(TIA, "TIA", INPUT_TYPES, MakeTransformationError)  # label: tia
    TOA = type_name(TOA, "TOA", ("f32", "f64"), MakeTransformationError)  # label: toa
    F = FORMAT[TOA]

    def consistent(arg):
        counts = integer_vector(arg, TIA)  # label: tree-input
        layers = tree_layers(len(counts), b)
        size = _nodes(layers, b)
        if size > MAX_LENGTH:  # label: size
            raise FailedFunctionError(
                f"the padded tree of {size} nodes exceeds {MAX_LENGTH}", parameter="arg"
            )
        zeros = size - len(counts)
        var = [F(1.0)] * size
        tree = [to_float(c, TOA) for c in counts] + [F(0.0)] * zeros  # label: cast
        for layer in range(layers):  # label: zero-nodes
            layer_zeros = zeros // b ** (layers - layer - 1)
            end = _nodes(layer + 1, b)
            for i in range(end - layer_zeros, end):
                var[i], tree[i] = F(0.0), F(0.0)
        with np.errstate(all="ignore"):
            for layer in range(layers - 2, -1, -1):  # label: bottom-up
                start = _nodes(layer, b)
                for i in range(start, start + b**layer):
                    if var[i] == 0:
                        continue
                    first = i * b + 1
                    child_var, child_val = var[first], tree[first]
                    for j in range(first + 1, first + b):  # label: child-sums
                        child_var, child_val = child_var + var[j], child_val + tree[j]
                    alpha = F(1.0) / var[i]
                    var[i] = F(1.0) / (F(1.0) / var[i] + F(1.0) / child_var)  # label: var
                    alpha = alpha * var[i]
                    tree[i] = alpha * tree[i] + (F(1.0) - alpha) * child_val  # label: weigh
            top = list(tree)
            for layer in range(layers - 1):  # label: top-down
                start = _nodes(layer, b)
                for i in range(start, start + b**layer):
                    first = i * b + 1
                    below = tree[first]
                    for j in range(first + 1, first + b):
                        below = below + tree[j]
                    correction = top[i] - below  # label: correction
                    if correction == 0:
                        continue
                    total_var = var[first]
                    for j in range(first + 1, first + b):
                        total_var = total_var + var[j]
                    for j in range(first, first + b):  # label: apportion
                        top[j] = top[j] + correction * var[j] / total_var
        leaves = _nodes(layers - 1, b)
        return [float(v) for v in top[leaves : size - zeros]]  # label: leaves

    return Function(consistent, f"Vec<{TOA}>")  # label: tree-function


# proof: end consistent
