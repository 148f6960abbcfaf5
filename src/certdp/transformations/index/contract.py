"""Contract of ``make_index``: the theorem of make_index.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in``.
"""

from hypothesis import strategies as st

from certdp.contracts.common import INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE, dataset_metrics
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.contracts.neighbours import members
from certdp.core.domains import (
    AtomDomain,
    VectorDomain,
    atom_domain,
    carrier_constant,
    vector_domain,
)
from certdp.core.errors import DPError
from certdp.core.exact_type import type_is
from certdp.core.types import carrier, infer_type

from .make_index import make_index


def _toa(a):
    return infer_type(a.categories[0]) if a.TOA is None else carrier(a.TOA)


def _toa_ok(a) -> bool:
    if not type_is(a.categories, list, tuple) or (a.TOA is None and not a.categories):
        return False
    try:
        _toa(a)
    except DPError:
        return False
    return True


def _values_ok(a) -> bool:
    T = _toa(a)
    return all(carrier_constant(v, T) is not None for v in [*a.categories, a.null])


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["i32", "f64", "String", "bool"]))
    element = atom_domain(T=T)
    return {
        "input_domain": vector_domain(atom_domain(bounds=(0, 5), T="usize")),
        "input_metric": draw(dataset_metrics()),
        "categories": draw(st.lists(members(element), max_size=4)),
        "null": draw(members(element)),
        "TOA": T,
    }


CONTRACT = TransformationContract(
    constructor=make_index,
    preconditions=[
        Precondition(
            "input-domain-vector-of-usize",
            lambda a: (
                isinstance(a.input_domain, VectorDomain)
                and type(a.input_domain.element_domain) is AtomDomain
                and a.input_domain.element_domain.T.name == "usize"
            ),
            "input_domain must be vector_domain(atom_domain(T='usize', ...))",
            parameter="input_domain",
        ),
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "toa-known",
            _toa_ok,
            "categories must be a list or tuple, and TOA a carrier type (or None with at least "
            "one category, whose type is inferred)",
            parameter="TOA",
        ),
        Precondition(
            "values-of-toa",
            _values_ok,
            "every category and null must be a value of TOA",
            parameter="categories",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
