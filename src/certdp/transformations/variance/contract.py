"""Contract of ``make_variance``: the theorem of make_variance.tex, executable.

The bound is ``c`` times the closed form of make_sum_of_squared_deviations for Pairwise
summation (OpenDP 0.16's variance always sums pairwise), ``c = fl(1 / (n - ddof))``.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.contracts.common import dataset_metrics
from certdp.contracts.contract import Precondition, TransformationContract
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.errors import ArithmeticOverflowError
from certdp.numeric import round_rational
from certdp.transformations._summation.float_sum_contracts import (
    ALGORITHM,
    representable_distances,
)
from certdp.transformations.sum_of_squared_deviations.contract import (
    BOUND as SSD_BOUND,
)
from certdp.transformations.sum_of_squared_deviations.contract import (
    PRECONDITIONS,
    bound_values,
)
from certdp.transformations.sum_of_squared_deviations.contract import (
    parameters as ssd_parameters,
)

from .make_variance import make_variance

RECIPROCAL = sympy.Symbol("c", positive=True)

BOUND = RECIPROCAL * SSD_BOUND


def parameters(arguments, built) -> dict:
    found = ssd_parameters(arguments, built)
    found[ALGORITHM] = 1  # always pairwise, as OpenDP 0.16
    n = arguments.input_domain.size
    ddof = getattr(arguments, "ddof", 1)
    T = arguments.input_domain.element_domain.T.name
    found[RECIPROCAL] = round_rational(Fraction(1, n - ddof), T, "nearest")
    return found


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    values = bound_values(T)
    lower, upper = sorted((draw(values), draw(values)))
    size = draw(st.integers(1, 6))
    return {
        "input_domain": vector_domain(atom_domain(bounds=(lower, upper), T=T), size=size),
        "input_metric": draw(dataset_metrics()),
        "ddof": draw(st.integers(0, size - 1)),
        "S": draw(st.sampled_from(["Pairwise<T>", "Sequential<T>"])),
    }


CONTRACT = TransformationContract(
    constructor=make_variance,
    preconditions=PRECONDITIONS
    + [
        Precondition(
            "ddof",
            lambda a: (
                isinstance(getattr(a, "ddof", 1), int)
                and not isinstance(getattr(a, "ddof", 1), bool)
                and 0 <= getattr(a, "ddof", 1) < (a.input_domain.size or 0)
            ),
            "ddof must be an integer with 0 <= ddof < size",
            parameter="ddof",
        )
    ],
    bound=BOUND,
    parameters=parameters,
    arguments=arguments,
    d_in=representable_distances,
    refusals=(ArithmeticOverflowError,),
)

#: The bound carries worst-case rounding terms (the summation error of the records through the
#: mean, n e_m^2) far above the true sensitivity of the float function: a target's map below it
#: is no evidence of a violation, so the crosscheck classifies no value against it (only
#: reproduced pairs count).
CONTRACT.bound_is_floor = False
