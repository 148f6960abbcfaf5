"""Contract of ``make_is_equal``: the theorem of make_is_equal.tex, executable.

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
from certdp.contracts.neighbours import members
from certdp.core.domains import atom_domain, carrier_constant, vector_domain

from .make_is_equal import make_is_equal

CARRIER_TYPES = ["i8", "i32", "i64", "u8", "u32", "f32", "f64", "bool", "String"]


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(CARRIER_TYPES))
    size = draw(optional_sizes(6))
    element = atom_domain(T=T)
    value = draw(members(element))
    metric = draw(dataset_metrics())
    return {
        "input_domain": vector_domain(element, size=size),
        "input_metric": metric,
        "value": value,
    }


CONTRACT = TransformationContract(
    constructor=make_is_equal,
    preconditions=[
        INPUT_DOMAIN_VECTOR_OF_ATOMS,
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "value-in-carrier-type",
            lambda a: carrier_constant(a.value, a.input_domain.element_domain.T) is not None,
            "value must be a value of the input domain's carrier type",
            parameter="value",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
