"""Contract of ``make_sum_of_squared_deviations``: the theorem of its proof, executable.

The bound is the proof's closed form: ``floor(d_in / 2) * (U - L)^2 * (n - 1) / n +
2 Err_S(n, (U - L)^2) + 2 n (U - L)^2 ((1 + u)^3 - 1) + n * e_m^2`` with ``u = 2^-(k+1)``,
``e = Err_S(n, M) / n`` and ``e_m = e + u (M + e)`` (the summation error of the mean plus the
rounding of its division, which OpenDP #2923 leaves out), ``Err_S`` the summation error bound of
float_summation.tex; at ``n = 1`` the bound is 0, the function being the constant 0.  The
code's map widens the range by ``2 e_m`` and adds the subnormal terms,
which only raises it.
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
from certdp.numeric import round_rational
from certdp.transformations._summation.float_sum_contracts import (
    ALGORITHM,
    ERROR,
    LOWER,
    MANTISSA_BITS,
    SIZE,
    UPPER,
    representable_distances,
)

from .make_sum_of_squared_deviations import make_sum_of_squared_deviations

SQUARES_ERROR = ERROR.subs({LOWER: 0, UPPER: (UPPER - LOWER) ** 2}, simultaneous=True)

#: the unit roundoff of the type
UNIT = sympy.Integer(2) ** -(MANTISSA_BITS + 1)

#: the error of the empirical mean: the summation error over n plus the division's rounding
MEAN_ERROR = ERROR / SIZE + UNIT * (sympy.Max(sympy.Abs(LOWER), UPPER) + ERROR / SIZE)

#: at n = 1 the function is the constant 0 (x - fl(x / 1) = 0), so its sensitivity is 0
BOUND = sympy.Piecewise(
    (0, sympy.Eq(SIZE, 1)),
    (
        sympy.floor(D_IN / 2) * (UPPER - LOWER) ** 2 * (SIZE - 1) / SIZE
        + 2 * SQUARES_ERROR
        + 2 * SIZE * (UPPER - LOWER) ** 2 * ((1 + UNIT) ** 3 - 1)
        + SIZE * MEAN_ERROR**2,
        True,
    ),
)


def parameters(arguments, built) -> dict:
    element = arguments.input_domain.element_domain
    lower, upper = element.bounds
    S = getattr(arguments, "S", "Pairwise<T>")
    return {
        LOWER: lower,
        UPPER: upper,
        SIZE: arguments.input_domain.size,
        MANTISSA_BITS: element.T.mantissa_bits,
        ALGORITHM: 0 if str(S).startswith("Sequential") else 1,
    }


def bound_values(T: str):
    """Bounds of ``T``: small ones, huge ones, and ones near ``2^50`` (OpenDP #2923)."""
    cast = (lambda value: float(round_rational(Fraction(value), "f32"))) if T == "f32" else float
    special = [0.0, 1.0, -1.0, 10.0, -2.5, cast(0.1), 2.0**50, 2.0**50 + 1.0, -(2.0**40)]
    return st.one_of(
        st.sampled_from(special),
        st.floats(-100.0, 100.0, width=32 if T == "f32" else 64).map(lambda value: value + 0.0),
    )


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    values = bound_values(T)
    lower, upper = sorted((draw(values), draw(values)))
    return {
        "input_domain": vector_domain(
            atom_domain(bounds=(lower, upper), T=T), size=draw(st.integers(1, 6))
        ),
        "input_metric": draw(dataset_metrics()),
        "S": draw(st.sampled_from(["Pairwise<T>", "Sequential<T>"])),
    }


STRATEGY = Precondition(
    "strategy",
    lambda a: (
        str(getattr(a, "S", "Pairwise<T>")).replace(" ", "")
        in {
            f"{algorithm}<{T}>"
            for algorithm in ("Sequential", "Pairwise")
            for T in ("T", a.input_domain.element_domain.T.name)
        }
    ),
    "S must be Sequential or Pairwise summation in the domain's type",
    parameter="S",
)

PRECONDITIONS = [
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
    STRATEGY,
]

CONTRACT = TransformationContract(
    constructor=make_sum_of_squared_deviations,
    preconditions=PRECONDITIONS,
    bound=BOUND,
    parameters=parameters,
    arguments=arguments,
    d_in=representable_distances,
    # the sums refuse bounds they cannot sum safely
    refusals=(ArithmeticOverflowError,),
)

#: The bound carries worst-case rounding terms (the summation error of the records through the
#: mean, n e_m^2) far above the true sensitivity of the float function: a target's map below it
#: is no evidence of a violation, so the crosscheck classifies no value against it (only
#: reproduced pairs count).
CONTRACT.bound_is_floor = False
