"""Contract of ``make_unordered``: the theorem of make_unordered.tex, executable.

Preconditions (ids as in the proof) and the stability bound ``d_in``.
"""

from hypothesis import strategies as st

from certdp.contracts.common import optional_sizes
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.change_metrics import HammingDistance, hamming_distance
from certdp.core.domains import VectorDomain, atom_domain, vector_domain
from certdp.core.exact_type import type_is
from certdp.core.metrics import InsertDeleteDistance, insert_delete_distance

from .make_unordered import make_unordered


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["i32", "f64", "String", "bool"]))
    return {
        "input_domain": vector_domain(atom_domain(T=T), size=draw(optional_sizes(6))),
        "input_metric": draw(st.sampled_from([insert_delete_distance(), hamming_distance()])),
    }


CONTRACT = TransformationContract(
    constructor=make_unordered,
    preconditions=[
        Precondition(
            "vector",
            lambda a: type(a.input_domain) is VectorDomain,
            "input_domain must be a vector_domain",
            parameter="input_domain",
        ),
        Precondition(
            "metric-pair",
            lambda a: type_is(a.input_metric, InsertDeleteDistance, HammingDistance),
            "input_metric must be insert_delete_distance() or hamming_distance()",
            parameter="input_metric",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
