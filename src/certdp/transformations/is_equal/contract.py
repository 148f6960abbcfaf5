"""Contract of ``make_is_equal``: the theorem of make_is_equal.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in``.
"""

from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.contracts.neighbours import members
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, vector_domain
from certdp.core.metrics import (
    InsertDeleteDistance,
    SymmetricDistance,
    insert_delete_distance,
    symmetric_distance,
)

from .make_is_equal import make_is_equal

CARRIER_TYPES = ["i8", "i32", "i64", "u8", "u32", "f32", "f64", "bool", "String"]


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(CARRIER_TYPES))
    size = draw(st.one_of(st.none(), st.integers(0, 6)))
    element = atom_domain(T=T)
    value = draw(members(element))
    metric = draw(st.sampled_from([symmetric_distance(), insert_delete_distance()]))
    return {
        "input_domain": vector_domain(element, size=size),
        "input_metric": metric,
        "value": value,
    }


CONTRACT = TransformationContract(
    constructor=make_is_equal,
    preconditions=[
        Precondition(
            "input-domain-vector-of-atoms",
            lambda a: (
                isinstance(a.input_domain, VectorDomain)
                and isinstance(a.input_domain.element_domain, AtomDomain)
            ),
            "input_domain must be vector_domain(atom_domain(T=...))",
            parameter="input_domain",
        ),
        Precondition(
            "input-metric-symmetric-or-insert-delete",
            lambda a: isinstance(a.input_metric, (SymmetricDistance, InsertDeleteDistance)),
            "input_metric must be symmetric_distance() or insert_delete_distance()",
            parameter="input_metric",
        ),
        Precondition(
            "value-in-carrier-type",
            lambda a: a.input_domain.element_domain.T.contains(a.value),
            "value must be a value of the input domain's carrier type",
            parameter="value",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
