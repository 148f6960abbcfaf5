"""Contract of ``make_impute_constant``: the theorem of make_impute_constant.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in``.  The arguments
drawn cover element domains with NaN, without NaN, and bounded.
"""

import math

from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    is_vector_of_float_atoms,
    optional_sizes,
    ordered_pair,
)
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.contracts.neighbours import members
from certdp.core.domains import atom_domain, carrier_constant, vector_domain

from .make_impute_constant import make_impute_constant


def _constant_ok(a) -> bool:
    converted = carrier_constant(a.constant, a.input_domain.element_domain.T)
    return converted is not None and not math.isnan(converted)


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    size = draw(optional_sizes(6))
    values = atom_domain(T=T, nan=False)
    finite = members(values).filter(math.isfinite)
    kind = draw(st.sampled_from(["nan", "no-nan", "bounded"]))
    if kind == "bounded":
        element = atom_domain(bounds=ordered_pair(draw(finite), draw(finite)), T=T)
    else:
        element = atom_domain(T=T, nan=kind == "nan")
    constant = draw(members(values))
    return {
        "input_domain": vector_domain(element, size=size),
        "input_metric": draw(dataset_metrics()),
        "constant": constant,
    }


CONTRACT = TransformationContract(
    constructor=make_impute_constant,
    preconditions=[
        Precondition(
            "input-domain-vector-of-float-atoms",
            is_vector_of_float_atoms,
            "input_domain must be vector_domain(atom_domain(T='f32' or 'f64', ...))",
            parameter="input_domain",
        ),
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "constant-non-nan-value",
            lambda a: is_vector_of_float_atoms(a) and _constant_ok(a),
            "constant must be a value of the input domain's carrier type and not NaN",
            parameter="constant",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
