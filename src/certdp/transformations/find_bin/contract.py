"""Contract of ``make_find_bin``: the theorem of make_find_bin.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in``.
"""

import math

from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    is_vector_of_numeric_atoms,
    optional_sizes,
)
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.contracts.neighbours import members
from certdp.core.domains import atom_domain, carrier_constant, vector_domain
from certdp.core.exact_type import type_is

from .make_find_bin import make_find_bin


def _edges_ok(a) -> bool:
    if not type_is(a.edges, list, tuple):
        return False
    T = a.input_domain.element_domain.T
    values = [carrier_constant(edge, T) for edge in a.edges]
    if any(v is None or (T.is_float and math.isnan(v)) for v in values):
        return False
    return all(values[i - 1] < values[i] for i in range(1, len(values)))


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["i32", "u8", "f32", "f64"]))
    element = atom_domain(T=T)
    values = draw(st.lists(members(atom_domain(T=T, nan=False)), max_size=4))
    edges = sorted(set(v for v in values if v == v and v != 0) | ({0} if T[0] != "f" else {0.0}))
    return {
        "input_domain": vector_domain(element, size=draw(optional_sizes(6))),
        "input_metric": draw(dataset_metrics()),
        "edges": edges,
    }


CONTRACT = TransformationContract(
    constructor=make_find_bin,
    preconditions=[
        Precondition(
            "input-domain-vector-of-numeric-atoms",
            is_vector_of_numeric_atoms,
            "input_domain must be vector_domain(atom_domain(T=<numeric type>, ...))",
            parameter="input_domain",
        ),
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "edges-strictly-increasing",
            _edges_ok,
            "edges must be a list or tuple of non-NaN values of the type, strictly increasing",
            parameter="edges",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
