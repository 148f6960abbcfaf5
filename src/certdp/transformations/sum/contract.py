"""Contract of ``make_sum``: the theorem of make_sum.tex, executable.

The bound is the one of the specialised sum that the dispatch chooses, without the float
rounding term (which is non-negative, so every valid float map lies above it):
``floor(d_in / 2) * (U - L)`` when the size is known, ``d_in * max(|L|, U)`` for integers of
unknown size, ``d_in * max(|L|, U, U - L)`` for floats of unknown size.
"""

import numpy as np
import sympy
from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_DOMAIN_BOUNDED,
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    is_vector_of_numeric_atoms,
    optional_sizes,
    ordered_pair,
)
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.errors import ArithmeticOverflowError
from certdp.core.types import carrier

from .make_sum import make_sum

L, U = sympy.Symbol("L"), sympy.Symbol("U")
SIZED, FLOAT = sympy.Symbol("sized"), sympy.Symbol("float")

BOUND = sympy.Piecewise(
    (sympy.floor(D_IN / 2) * (U - L), sympy.Eq(SIZED, 1)),
    (D_IN * sympy.Max(sympy.Abs(L), U), sympy.Eq(FLOAT, 0)),
    (D_IN * sympy.Max(sympy.Abs(L), U, U - L), True),
)

CARRIER_TYPES = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64"]


def parameters(arguments, built) -> dict:
    element = built.input_domain.element_domain
    return {
        L: element.bounds[0],
        U: element.bounds[1],
        SIZED: int(built.input_domain.size is not None),
        FLOAT: int(element.T.is_float),
    }


def _bound_values(T):
    T = carrier(T)
    if T.is_float:
        # values of T: binary32 roundings of 1e30 and 1e32 for f32
        # huge bounds make the float sums overflow-prone: the ordered (saturating) branch
        huge = [1e30, -1e32, 1e32, 1e35] if T.name == "f32" else [1e300, -1e303, 1e303, 1e305]
        huge = [float(np.float32(value)) for value in huge] if T.name == "f32" else huge
        extremes = [0.0, 1.0, -1.0, 10.0, -10.0, 0.5, -2.5, *huge]
        return st.one_of(st.sampled_from(extremes), st.floats(-100.0, 100.0, width=T.bits))
    special = [T.min, T.min + 1, T.max, T.max - 1, T.max // 2, 0, 1, -1, 10, -10]
    special = [value for value in special if T.min <= value <= T.max]
    return st.one_of(
        st.sampled_from(special),
        st.integers(max(T.min, -30), min(T.max, 30)),
        st.integers(T.min, T.max),
    )


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(CARRIER_TYPES))
    values = _bound_values(T)
    bounds = ordered_pair(draw(values), draw(values))
    size = draw(optional_sizes(6))
    metric = draw(dataset_metrics())
    return {
        "input_domain": vector_domain(atom_domain(bounds=bounds, T=T), size=size),
        "input_metric": metric,
    }


def representable_distances(built) -> st.SearchStrategy:
    """The ``d_in`` up to the largest whose map does not overflow (bisected, up to
    :data:`~certdp.contracts.neighbours.DATASET_DISTANCE_LIMIT`), with the large values where
    float arithmetic stops being exact."""
    from certdp.contracts.neighbours import distances_for

    return distances_for(built)


CONTRACT = TransformationContract(
    constructor=make_sum,
    preconditions=[
        Precondition(
            "input-domain-vector-of-numeric-atoms",
            is_vector_of_numeric_atoms,
            "input_domain must be vector_domain(atom_domain(...)) of a numeric type",
            parameter="input_domain",
        ),
        INPUT_DOMAIN_BOUNDED,
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    ],
    bound=BOUND,
    parameters=parameters,
    arguments=arguments,
    d_in=representable_distances,
    # the chosen sum may refuse its bounds (an overflowing range or magnitude)
    refusals=(ArithmeticOverflowError,),
)
