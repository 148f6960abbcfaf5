"""Contract of ``make_count_by_categories``: the theorem of make_count_by_categories.tex,
executable.

Preconditions (ids as in the proof), and the stability bound ``d_out = d_in`` (L1 and L2).
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

from .make_count_by_categories import _categories, _output_metric, make_count_by_categories

ELEMENTS = {
    "i32": (atom_domain(bounds=(0, 3), T="i32"), st.integers(0, 4)),
    "u64": (atom_domain(T="u64"), st.integers(0, 3)),
    "i8": (atom_domain(T="i8"), st.integers(-128, 127)),
    "bool": (atom_domain(T="bool"), st.booleans()),
    "String": (atom_domain(T="String"), st.sampled_from(["", "a", "b", "ab"])),
}
METRIC_TYPES = ["i32", "u32", "i64", "u64", "usize", "i8", "f32", "f64", "int", "float"]


@st.composite
def arguments(draw):
    name = draw(st.sampled_from(sorted(ELEMENTS)))
    element, values = ELEMENTS[name]
    categories = draw(st.lists(values, unique=True, max_size=4))
    MO = f"{draw(st.sampled_from(['L1Distance', 'L2Distance']))}<{draw(st.sampled_from(METRIC_TYPES))}>"
    return {
        "input_domain": vector_domain(element, size=draw(optional_sizes(6))),
        "input_metric": draw(dataset_metrics()),
        "categories": categories,
        "null_category": draw(st.booleans()),
        "MO": MO,
        "TOA": draw(st.sampled_from(NUMERIC_TYPES)),
    }


def _holds(check):
    def predicate(a) -> bool:
        try:
            return bool(check(a))
        except DPError:
            return False

    return predicate


CONTRACT = TransformationContract(
    constructor=make_count_by_categories,
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
            "categories-distinct",
            _holds(
                lambda a: _categories(a.categories, a.input_domain.element_domain.T) is not None
            ),
            "categories must be a list of distinct values of the elements' type",
            parameter="categories",
        ),
        Precondition(
            "null-category-bool",
            lambda a: type(a.null_category) is bool,
            "null_category must be True or False",
            parameter="null_category",
        ),
        Precondition(
            "output-metric-l1-or-l2",
            _holds(lambda a: _output_metric(a.MO) is not None),
            "MO must name L1Distance<T> or L2Distance<T> for a numeric T",
            parameter="MO",
        ),
        Precondition(
            "output-type-numeric",
            _holds(lambda a: carrier(a.TOA).is_numeric),
            "TOA must name a numeric carrier type (i8 ... u128, usize, f32, f64)",
            parameter="TOA",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
    d_in=lambda built: st.integers(0, 6),
)
