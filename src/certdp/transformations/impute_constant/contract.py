"""Contract of ``make_impute_constant``: the theorem of make_impute_constant.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in``.  The arguments
drawn cover float element domains with NaN, without NaN, and bounded, and option domains of
floats, integers, texts and booleans (as ``make_cast`` outputs).
"""

import math

from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    optional_sizes,
    ordered_pair,
)
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.contracts.neighbours import members
from certdp.core.domains import (
    AtomDomain,
    VectorDomain,
    atom_domain,
    carrier_constant,
    vector_domain,
)
from certdp.core.option_domain import OptionDomain, option_domain

from .make_impute_constant import make_impute_constant


def _nullable(a) -> bool:
    if not isinstance(a.input_domain, VectorDomain):
        return False
    element = a.input_domain.element_domain
    return type(element) is OptionDomain or (isinstance(element, AtomDomain) and element.T.is_float)


def _carrier(a):
    element = a.input_domain.element_domain
    return element.element_domain.T if type(element) is OptionDomain else element.T


def _constant_ok(a) -> bool:
    T = _carrier(a)
    converted = carrier_constant(a.constant, T)
    return converted is not None and not (T.is_float and math.isnan(converted))


@st.composite
def arguments(draw):
    if draw(st.booleans()):
        T = draw(st.sampled_from(["f32", "f64", "i32", "u8", "String", "bool"]))
        nan = draw(st.booleans()) if T in ("f32", "f64") else None
        inner = atom_domain(T=T, nan=nan)
        values = atom_domain(T=T, nan=False) if nan is not None else inner
        return {
            "input_domain": vector_domain(option_domain(inner), size=draw(optional_sizes(6))),
            "input_metric": draw(dataset_metrics()),
            "constant": draw(members(values)),
        }
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
            "input-domain-vector-of-nullable",
            _nullable,
            "input_domain must be vector_domain(atom_domain(T='f32' or 'f64', ...)) or "
            "vector_domain(option_domain(...))",
            parameter="input_domain",
        ),
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "constant-non-nan-value",
            lambda a: _nullable(a) and _constant_ok(a),
            "constant must be a value of the input domain's carrier type and not NaN",
            parameter="constant",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
