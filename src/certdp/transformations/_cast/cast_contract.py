"""The executable contract shared by ``make_cast`` and ``make_cast_default``: a vector of atoms
under a dataset metric, an output type ``TOA`` naming a carrier type, and the stability bound
``d_out = d_in``."""

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
from certdp.core.types import carrier

__all__ = ["TYPES", "cast_contract"]

TYPES = ["i8", "i32", "i64", "u8", "u32", "u64", "f32", "f64", "bool", "String"]


def _toa_ok(a) -> bool:
    try:
        carrier(a.TOA)
    except DPError:
        return False
    return True


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(TYPES))
    return {
        "input_domain": vector_domain(atom_domain(T=T), size=draw(optional_sizes(6))),
        "input_metric": draw(dataset_metrics()),
        "TOA": draw(st.sampled_from(TYPES)),
    }


def cast_contract(constructor) -> TransformationContract:
    """The contract of ``constructor``, a cast of every record into ``TOA``."""
    return TransformationContract(
        constructor=constructor,
        preconditions=[
            INPUT_DOMAIN_VECTOR_OF_ATOMS,
            INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
            Precondition("toa-carrier", _toa_ok, "TOA must name a carrier type", parameter="TOA"),
        ],
        bound=D_IN,
        arguments=arguments,
    )
