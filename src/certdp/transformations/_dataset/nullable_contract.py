"""The executable contract shared by the row-wise null tests (``make_is_null``,
``make_drop_null``): a vector of nullable elements (float atoms, NaN the null, or an option
domain, None the null) under a dataset metric, and the stability bound ``d_out = d_in``."""

from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    optional_sizes,
)
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, vector_domain
from certdp.core.option_domain import OptionDomain, option_domain

__all__ = ["nullable_contract"]


def _nullable(a) -> bool:
    if not isinstance(a.input_domain, VectorDomain):
        return False
    element = a.input_domain.element_domain
    return type(element) is OptionDomain or (type(element) is AtomDomain and element.T.is_float)


@st.composite
def arguments(draw):
    kind = draw(st.sampled_from(["f32", "f64", "option"]))
    if kind == "option":
        T = draw(st.sampled_from(["i32", "f64", "String", "bool"]))
        element = option_domain(atom_domain(T=T))
    else:
        element = atom_domain(T=kind, nan=draw(st.booleans()))
    return {
        "input_domain": vector_domain(element, size=draw(optional_sizes(6))),
        "input_metric": draw(dataset_metrics()),
    }


def nullable_contract(constructor) -> TransformationContract:
    """The contract of ``constructor``, a null test over a vector of nullable elements."""
    return TransformationContract(
        constructor=constructor,
        preconditions=[
            Precondition(
                "input-domain-vector-of-nullable",
                _nullable,
                "input_domain must be vector_domain(atom_domain(T=<float type>)) or "
                "vector_domain(option_domain(...))",
                parameter="input_domain",
            ),
            INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        ],
        bound=D_IN,
        arguments=arguments,
    )
