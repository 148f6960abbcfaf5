"""Contract of ``make_mean``: the theorem of make_mean.tex, executable.

The bound is the proof's: ``c * (floor(d_in / 2) * (U - L) + 2 E) + ulp(c * M_n)``, where
``c`` is ``1 / n`` rounded to nearest, ``E`` the pairwise summation error bound of
float_summation.tex (``log2 n / 2^k / (1 - log2 n / 2^k) * n * max(|L|, U)``), and
``M_n = max(n |L|, n U)`` (the contract takes the exact ``M_n``; the code rounds it up, which
only raises the ulp).
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_DOMAIN_BOUNDED,
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    is_vector_of_float_atoms,
)
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.errors import ArithmeticOverflowError
from certdp.numeric import round_rational, ulp
from certdp.transformations._summation.float_sum_contracts import (
    ALGORITHM,
    LOWER,
    MANTISSA_BITS,
    RELAXATION,
    SIZE,
    UPPER,
    representable_distances,
)

from .make_mean import make_mean

RECIPROCAL = sympy.Symbol("c", positive=True)
ROUNDING = sympy.Symbol("rounding", nonnegative=True)

BOUND = RECIPROCAL * (sympy.floor(D_IN / 2) * (UPPER - LOWER) + RELAXATION) + ROUNDING


def parameters(arguments, built) -> dict:
    element = arguments.input_domain.element_domain
    lower, upper = element.bounds
    n = arguments.input_domain.size
    T = element.T.name
    reciprocal = round_rational(Fraction(1, n), T, "nearest")
    largest_sum = max(n * abs(Fraction(lower)), n * Fraction(upper))
    return {
        LOWER: lower,
        UPPER: upper,
        SIZE: n,
        MANTISSA_BITS: element.T.mantissa_bits,
        ALGORITHM: 1,  # make_sum sums floats pairwise
        RECIPROCAL: reciprocal,
        ROUNDING: ulp(largest_sum * Fraction(reciprocal), T),
    }


def _bound_values(T: str):
    cast = (lambda value: float(round_rational(Fraction(value), "f32"))) if T == "f32" else float
    special = [0.0, 1.0, -1.0, 10.0, -10.0, 0.5, -2.5, cast(1e-3), cast(0.1), 2.0**60, -(2.0**60)]
    return st.one_of(
        st.sampled_from(special),
        st.floats(-100.0, 100.0, width=32 if T == "f32" else 64).map(lambda value: value + 0.0),
    )


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    values = _bound_values(T)
    lower, upper = sorted((draw(values), draw(values)))
    return {
        "input_domain": vector_domain(
            atom_domain(bounds=(lower, upper), T=T), size=draw(st.integers(1, 6))
        ),
        "input_metric": draw(dataset_metrics()),
    }


CONTRACT = TransformationContract(
    constructor=make_mean,
    preconditions=[
        Precondition(
            "input-domain-vector-of-float-atoms",
            is_vector_of_float_atoms,
            "input_domain must be vector_domain(atom_domain(...)) of f32 or f64",
            parameter="input_domain",
        ),
        INPUT_DOMAIN_BOUNDED,
        Precondition(
            "input-domain-sized",
            lambda a: a.input_domain.size is not None and a.input_domain.size >= 1,
            "input_domain must have a known, positive size",
            parameter="input_domain",
        ),
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    ],
    bound=BOUND,
    parameters=parameters,
    arguments=arguments,
    d_in=representable_distances,
    # the sum refuses bounds it cannot sum safely, and n L or n U may overflow
    refusals=(ArithmeticOverflowError,),
)
