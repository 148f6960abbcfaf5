"""Contract of ``make_consistent_b_ary_tree``: the theorem of make_consistent_b_ary_tree.tex,
executable.

Preconditions: ``2 <= branching_factor < 2**32``, ``TIA`` an integer type OpenDP takes, ``TOA``
f32 or f64.  Postcondition (``postconditions.py``): as many values as the present leaves, each,
bit for bit, the leaf of the theorem's IEEE steps replayed with exact rationals.
"""

from hypothesis import strategies as st

from certdp.contracts.contract import Precondition
from certdp.transformations._postprocess.contract_support import FunctionContract
from certdp.transformations._postprocess.postconditions import consistent_tree_postcondition

from .make_consistent_b_ary_tree import INPUT_TYPES, make_consistent_b_ary_tree


@st.composite
def cases(draw):
    b = draw(st.integers(2, 4))
    TOA = draw(st.sampled_from(["f32", "f64"]))
    low = draw(st.sampled_from([0, -100]))
    tree = draw(st.lists(st.integers(low, 1000), min_size=1, max_size=22))
    return {"branching_factor": b, "TIA": "i64", "TOA": TOA}, tree


CONTRACT = FunctionContract(
    constructor=make_consistent_b_ary_tree,
    preconditions=[
        Precondition(
            "b-range",
            lambda a: type(a.branching_factor) is int and 2 <= a.branching_factor < 1 << 32,
            "branching_factor must be an integer in [2, 2**32)",
            parameter="branching_factor",
        ),
        Precondition(
            "TIA-integer",
            lambda a: a.TIA in (*INPUT_TYPES, "int", int),
            "TIA must name one of i32, i64, u32, u64, usize",
            parameter="TIA",
        ),
        Precondition(
            "TOA-float",
            lambda a: a.TOA in ("f32", "f64", "float", float),
            "TOA must name f32 or f64",
            parameter="TOA",
        ),
    ],
    cases=cases,
    postcondition=lambda kwargs, arg, out: consistent_tree_postcondition(
        arg, kwargs["branching_factor"], out, kwargs["TOA"]
    ),
)
