"""Contract of ``make_metric_bounded``: the theorem of make_metric_bounded.tex, executable.

Preconditions (ids as in the proof) and the stability bound: ``floor(d_in / 2)`` from the
symmetric distance, and ``0`` for ``d_in < 2``, else the size ``N``, from the insert-delete one.
"""

import sympy
from hypothesis import strategies as st

from certdp.contracts.common import dataset_metrics
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.domains import VectorDomain, atom_domain, vector_domain
from certdp.core.exact_type import type_is
from certdp.core.metrics import InsertDeleteDistance, SymmetricDistance

from .make_metric_bounded import make_metric_bounded

N = sympy.Symbol("N", integer=True, nonnegative=True)
ORDERED = sympy.Symbol("ordered", integer=True)

SYMBOL_MEANINGS = {
    "N": "the known ``size`` of the input domain",
    "ordered": "1 when the input metric is the insert-delete distance (output: Hamming), "
    "0 for the symmetric distance (output: change-one)",
}


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["i32", "f64", "String", "bool"]))
    return {
        "input_domain": vector_domain(atom_domain(T=T), size=draw(st.integers(0, 6))),
        "input_metric": draw(dataset_metrics()),
    }


CONTRACT = TransformationContract(
    constructor=make_metric_bounded,
    preconditions=[
        Precondition(
            "sized-vector",
            lambda a: type(a.input_domain) is VectorDomain and a.input_domain.size is not None,
            "input_domain must be a vector_domain of known size",
            parameter="input_domain",
        ),
        Precondition(
            "metric-pair",
            lambda a: type_is(a.input_metric, SymmetricDistance, InsertDeleteDistance),
            "input_metric must be symmetric_distance() or insert_delete_distance()",
            parameter="input_metric",
        ),
    ],
    bound=sympy.Piecewise(
        (sympy.floor(D_IN / 2), sympy.Eq(ORDERED, 0)),
        (0, D_IN < 2),
        (N, True),
    ),
    parameters=lambda args, built: {
        N: args.input_domain.size,
        ORDERED: int(type(args.input_metric) is InsertDeleteDistance),
    },
    arguments=arguments,
)
