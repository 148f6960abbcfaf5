"""Contract of ``make_pureDP_to_zCDP``: the theorem of make_pureDP_to_zCDP.tex, executable.

The bound is ``map(d_in)^2 / 2`` exactly; the divergence of a pair of inputs is
``epsilon^2 / 2`` for the exact max-divergence ``epsilon`` of the pair under the inner
measurement (computed by its own contract), the zCDP bound the proof derives from it.
"""

import math
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.combinators._support.contract_support import (
    CombinatorContract,
    component_divergence,
    pure_measurements,
)
from certdp.contracts.common import measurement_with_output_measure
from certdp.core.measures import MaxDivergence

from .make_pureDP_to_zCDP import make_pureDP_to_zCDP

INNER_EPSILON = sympy.Symbol("epsilon", nonnegative=True)


def arguments():
    return (
        st.sampled_from(["f64", "i32"]).flatmap(pure_measurements).map(lambda m: {"measurement": m})
    )


def _closed_form(arguments, d_in):
    epsilon = arguments.measurement.map(d_in)
    return sympy.oo if math.isinf(epsilon) else Fraction(epsilon) ** 2 / 2


def _divergence(built, kwargs, x, x_prime):
    epsilon = component_divergence(kwargs["measurement"], x, x_prime)
    return epsilon**2 / 2, {"epsilon": str(epsilon)}


CONTRACT = CombinatorContract(
    constructor=make_pureDP_to_zCDP,
    preconditions=[
        measurement_with_output_measure("measurement-pure-dp", MaxDivergence),
    ],
    bound=INNER_EPSILON**2 / 2,
    arguments=arguments,
    divergence=_divergence,
    closed_form=_closed_form,
)
