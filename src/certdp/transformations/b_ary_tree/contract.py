"""Contract of ``make_b_ary_tree``: the theorem of make_b_ary_tree.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in * F`` with
``F = L`` (the number of layers) under L1 and ``F = sqrt(S)`` under L2.
"""

import sympy
from hypothesis import strategies as st

from certdp.contracts.common import INPUT_DOMAIN_VECTOR_OF_ATOMS
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.exact_type import type_is
from certdp.core.metrics import L1Distance, L2Distance, l1_distance, l2_distance

from .make_b_ary_tree import MAX_LEAF_COUNT, layer_count, make_b_ary_tree

#: The factor of the bound: the layer count (L1) or the square root of the spread (L2).
FACTOR = sympy.Symbol("F", positive=True)

INTEGER_TYPES = ["i8", "i32", "i64", "u8", "u32", "u64"]


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(INTEGER_TYPES))
    Q = draw(st.sampled_from(["i32", "i64", "u32", "u64"]))
    metric = draw(st.sampled_from([l1_distance, l2_distance]))(T=Q)
    return {
        "input_domain": vector_domain(atom_domain(T=T), size=draw(st.none() | st.integers(0, 6))),
        "input_metric": metric,
        "leaf_count": draw(st.integers(1, 9)),
        "branching_factor": draw(st.integers(2, 4)),
    }


def _factor(arguments, built):
    n, b = arguments.leaf_count, arguments.branching_factor
    L = layer_count(n, b)
    if type(arguments.input_metric) is L1Distance:
        return {FACTOR: sympy.Integer(L)}
    return {FACTOR: sympy.sqrt(sum(min(b**j, n) for j in range(L)))}


def _is_int(value, least, largest) -> bool:
    return type(value) is int and least <= value <= largest


CONTRACT = TransformationContract(
    constructor=make_b_ary_tree,
    preconditions=[
        INPUT_DOMAIN_VECTOR_OF_ATOMS,
        Precondition(
            "input-domain-integer",
            lambda a: a.input_domain.element_domain.T.is_integer,
            "the elements of input_domain must be of an integer type",
            parameter="input_domain",
        ),
        Precondition(
            "input-metric-l1-or-l2-integer",
            lambda a: (
                type_is(a.input_metric, L1Distance, L2Distance) and a.input_metric.T.is_integer
            ),
            "input_metric must be l1_distance or l2_distance of an integer type",
            parameter="input_metric",
        ),
        Precondition(
            "leaf-count-range",
            lambda a: _is_int(a.leaf_count, 1, MAX_LEAF_COUNT),
            f"leaf_count must be an integer in [1, {MAX_LEAF_COUNT}]",
            parameter="leaf_count",
        ),
        Precondition(
            "branching-factor-range",
            lambda a: _is_int(a.branching_factor, 2, (1 << 32) - 1),
            "branching_factor must be an integer in [2, 2**32 - 1]",
            parameter="branching_factor",
        ),
    ],
    bound=D_IN * FACTOR,
    parameters=_factor,
    arguments=arguments,
    d_in=lambda built: st.integers(0, 4),
)

# The L1 bound d_in * L is attained while d_in is within T's range (one leaf moved by d_in
# moves one branch per layer by d_in, no sum saturating); beyond it (d_in > max T - min T, e.g.
# u8 and d_in > 255: the root moves by less than d_in) it is an upper bound only, so a target's
# smaller map there is labelled suspect without being wrong.  The L2 bound d_in * sqrt(S) is an
# upper bound only: on integer counts at L2 distance 1 a single leaf moves by one and the tree
# by sqrt(L) < sqrt(S).  A map below it is not suspect by itself.
CONTRACT.bound_is_floor = lambda arguments: type(arguments.input_metric) is L1Distance

SYMBOL_MEANINGS = {
    "F": "the number of layers L (the least k >= 0 with branching_factor**k >= leaf_count, "
    "plus one) under L1; the square root of S, the sum over the layers j = 0 .. L-1 of "
    "min(branching_factor**j, leaf_count), under L2 (the map rounds d_in * F up to an integer)",
}
