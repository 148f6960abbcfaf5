"""Contract of ``make_count``: the theorem of make_count.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in``.
"""

from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, vector_domain
from certdp.core.errors import DPError
from certdp.core.metrics import (
    InsertDeleteDistance,
    SymmetricDistance,
    insert_delete_distance,
    symmetric_distance,
)
from certdp.core.types import NUMERIC_TYPES, carrier

from .make_count import make_count

ELEMENT_TYPES = ["i8", "i32", "u64", "f32", "f64", "bool", "String"]


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(ELEMENT_TYPES))
    element = atom_domain(T=T)
    if T in ("i32", "f64") and draw(st.booleans()):
        element = atom_domain(bounds=(0, 3) if T == "i32" else (0.0, 3.0), T=T)
    return {
        "input_domain": vector_domain(element, size=draw(st.one_of(st.none(), st.integers(0, 6)))),
        "input_metric": draw(st.sampled_from([symmetric_distance(), insert_delete_distance()])),
        "TO": draw(st.sampled_from(NUMERIC_TYPES)),
    }


def representable_distances(built):
    """``d_in`` in 0..6 that the output type holds (every numeric type holds 0..6)."""
    return st.integers(0, 6)


def _numeric_output_type(a) -> bool:
    try:
        return carrier(a.TO).is_numeric
    except DPError:
        return False


CONTRACT = TransformationContract(
    constructor=make_count,
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
            "output-type-numeric",
            _numeric_output_type,
            "TO must name a numeric carrier type (i8 ... u128, usize, f32, f64)",
            parameter="TO",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
    d_in=representable_distances,
)
