"""Contract of ``make_find``: the theorem of make_find.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in``.
"""

from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    is_vector_of_atoms,
    optional_sizes,
)
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.contracts.neighbours import members
from certdp.core.domains import atom_domain, carrier_constant, vector_domain
from certdp.core.exact_type import type_is

from .make_find import make_find


def _categories_ok(a) -> bool:
    if not type_is(a.categories, list, tuple):
        return False
    values = [carrier_constant(c, a.input_domain.element_domain.T) for c in a.categories]
    return None not in values and len(set(values)) == len(values)


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["i32", "u8", "bool", "String"]))
    element = atom_domain(T=T)
    categories = list(dict.fromkeys(draw(st.lists(members(element), max_size=4))))
    return {
        "input_domain": vector_domain(element, size=draw(optional_sizes(6))),
        "input_metric": draw(dataset_metrics()),
        "categories": categories,
    }


CONTRACT = TransformationContract(
    constructor=make_find,
    preconditions=[
        Precondition(
            "input-domain-vector-of-hashable-atoms",
            lambda a: is_vector_of_atoms(a) and not a.input_domain.element_domain.T.is_float,
            "input_domain must be vector_domain(atom_domain(T=<integer type, bool or String>))",
            parameter="input_domain",
        ),
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "categories-distinct-values",
            _categories_ok,
            "categories must be a list or tuple of distinct values of the type",
            parameter="categories",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
