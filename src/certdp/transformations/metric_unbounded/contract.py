"""Contract of ``make_metric_unbounded``: the theorem of make_metric_unbounded.tex, executable.

Preconditions (ids as in the proof) and the stability bound ``2 * d_in``.
"""

from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.change_metrics import (
    ChangeOneDistance,
    HammingDistance,
    change_one_distance,
    hamming_distance,
)
from certdp.core.domains import VectorDomain, atom_domain, vector_domain
from certdp.core.exact_type import type_is

from .make_metric_unbounded import make_metric_unbounded


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["i32", "f64", "String", "bool"]))
    return {
        "input_domain": vector_domain(atom_domain(T=T), size=draw(st.integers(0, 6))),
        "input_metric": draw(st.sampled_from([change_one_distance(), hamming_distance()])),
    }


CONTRACT = TransformationContract(
    constructor=make_metric_unbounded,
    preconditions=[
        Precondition(
            "sized-vector",
            lambda a: type(a.input_domain) is VectorDomain and a.input_domain.size is not None,
            "input_domain must be a vector_domain of known size",
            parameter="input_domain",
        ),
        Precondition(
            "metric-pair",
            lambda a: type_is(a.input_metric, ChangeOneDistance, HammingDistance),
            "input_metric must be change_one_distance() or hamming_distance()",
            parameter="input_metric",
        ),
    ],
    bound=2 * D_IN,
    arguments=arguments,
)
