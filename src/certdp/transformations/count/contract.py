"""Contract of ``make_count``: the theorem of make_count.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in``.
"""

from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_DOMAIN_VECTOR_OF_ATOMS,
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    optional_sizes,
)
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.errors import DPError
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
        "input_domain": vector_domain(element, size=draw(optional_sizes(6))),
        "input_metric": draw(dataset_metrics()),
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
        INPUT_DOMAIN_VECTOR_OF_ATOMS,
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
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
