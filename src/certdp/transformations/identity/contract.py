"""Contract of ``make_identity``: the theorem of make_identity.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in``.  The arguments
drawn are vector domains under the dataset metrics (the spaces whose neighbours the contract
search draws); the proof covers every metric space the code accepts.
"""

from hypothesis import strategies as st

from certdp.contracts.common import dataset_metrics, optional_sizes
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.domains import atom_domain, vector_domain

from .make_identity import _metric_space, make_identity


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["i32", "f64", "String", "bool"]))
    return {
        "domain": vector_domain(atom_domain(T=T), size=draw(optional_sizes(6))),
        "metric": draw(dataset_metrics()),
    }


CONTRACT = TransformationContract(
    constructor=make_identity,
    preconditions=[
        Precondition(
            "metric-space",
            lambda a: _metric_space(a.domain, a.metric),
            "metric must measure the members of domain (a metric space certdp knows)",
            parameter="metric",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
