"""Contract of ``make_count_distinct``: the theorem of make_count_distinct.tex, executable.

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

from .make_count_distinct import make_count_distinct

ELEMENTS = [
    atom_domain(bounds=(0, 3), T="i32"),
    atom_domain(T="u8"),
    atom_domain(T="bool"),
    atom_domain(T="String"),
]


@st.composite
def arguments(draw):
    return {
        "input_domain": vector_domain(
            draw(st.sampled_from(ELEMENTS)), size=draw(optional_sizes(6))
        ),
        "input_metric": draw(dataset_metrics()),
        "TO": draw(st.sampled_from(NUMERIC_TYPES)),
    }


def _numeric_output_type(a) -> bool:
    try:
        return carrier(a.TO).is_numeric
    except DPError:
        return False


CONTRACT = TransformationContract(
    constructor=make_count_distinct,
    preconditions=[
        INPUT_DOMAIN_VECTOR_OF_ATOMS,
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "input-elements-hashable",
            lambda a: not a.input_domain.element_domain.T.is_float,
            "the elements of input_domain must be of an integer type, bool or String",
            parameter="input_domain",
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
    d_in=lambda built: st.integers(0, 6),
)
