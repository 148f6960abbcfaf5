"""Contract of ``make_chain_mt``: the chaining theorem for a transformation and a measurement,
executable.

The bound is ``map1(map0(d_in))`` exactly; the divergence of a pair of datasets is the exact
divergence, under the Laplace measurement (its own contract computes it), of the pair of
outputs of the transformation (a clamp then a sum or a count) on them.
"""

import math
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.combinators._support.chain_support import clamps, noise_after, outer_transformations
from certdp.combinators._support.contract_support import CombinatorContract
from certdp.contracts.contract import Precondition
from certdp.core.transformation import Measurement, Transformation, _chain

from .make_chain_mt import make_chain_mt

COMPOSED = sympy.Symbol("map_1(map_0(d_in))", nonnegative=True)


@st.composite
def arguments(draw):
    clamp = draw(clamps())
    outer = draw(outer_transformations(clamp))
    inner = _chain(clamp, outer)
    return {"measurement1": draw(noise_after(inner)), "transformation0": inner}


def _closed_form(arguments, d_in):
    value = arguments.measurement1.map(arguments.transformation0.map(d_in))
    return sympy.oo if value == math.inf else Fraction(value)


def _divergence(built, kwargs, x, x_prime):
    inner, outer = kwargs["transformation0"], kwargs["measurement1"]
    y, y_prime = inner(x), inner(x_prime)
    divergence, witness = outer.contract.divergence(outer, outer.contract_arguments, y, y_prime)
    return divergence, {"transformed": (y, y_prime), "witness": witness}


CONTRACT = CombinatorContract(
    constructor=make_chain_mt,
    preconditions=[
        Precondition(
            "parts-valid",
            lambda a: (
                isinstance(a.measurement1, Measurement)
                and isinstance(a.transformation0, Transformation)
            ),
            "measurement1 must be a (valid) measurement and transformation0 a (valid) "
            "transformation",
            parameter="measurement1",
        ),
    ],
    bound=COMPOSED,
    arguments=arguments,
    divergence=_divergence,
    closed_form=_closed_form,
)
