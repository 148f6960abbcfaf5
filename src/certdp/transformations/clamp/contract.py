"""Contract of ``make_clamp``: the theorem of make_clamp.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in``.
"""

import math

from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    is_vector_of_numeric_atoms,
    optional_sizes,
    ordered_pair,
)
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.contracts.neighbours import members
from certdp.core.domains import atom_domain, vector_domain

from .make_clamp import make_clamp

CARRIER_TYPES = ["i8", "i16", "i32", "i64", "u8", "u32", "u64", "f32", "f64"]


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(CARRIER_TYPES))
    unbounded = atom_domain(T=T, nan=False) if T.startswith("f") else atom_domain(T=T)
    finite = members(unbounded).filter(
        lambda value: not (isinstance(value, float) and math.isinf(value))
    )
    if draw(st.booleans()):
        element = unbounded
    else:
        element = atom_domain(bounds=ordered_pair(draw(finite), draw(finite)), T=T)
    lower, upper = ordered_pair(draw(finite), draw(finite))
    return {
        "input_domain": vector_domain(element, size=draw(optional_sizes(6))),
        "input_metric": draw(dataset_metrics()),
        "bounds": (lower, upper),
    }


def _bounds_valid(a) -> bool:
    atom_domain(bounds=a.bounds, T=a.input_domain.element_domain.T)
    return True


CONTRACT = TransformationContract(
    constructor=make_clamp,
    preconditions=[
        Precondition(
            "input-domain-vector-of-numeric-atoms",
            is_vector_of_numeric_atoms,
            "input_domain must be vector_domain(atom_domain(T=...)) of a numeric type",
            parameter="input_domain",
        ),
        Precondition(
            "input-domain-nan-free",
            lambda a: not a.input_domain.element_domain.nan,
            "the elements of input_domain must not include NaN",
            parameter="input_domain",
        ),
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "bounds-valid",
            _bounds_valid,
            "bounds must be a pair (lower, upper) of finite values of T with lower <= upper",
            parameter="bounds",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
