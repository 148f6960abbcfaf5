"""Contract of ``make_chain_pm``: postprocessing keeps the measurement's map, executable.

The bound is the inner map ``map_0(d_in)`` exactly; the divergence of a pair is the exact
divergence of the pair under the inner measurement (a Laplace or a Gaussian: its own contract
computes it), which bounds that of any postprocessing of it.  The postprocessing functions
drawn are deterministic and randomised callbacks that never raise.
"""

import math
import secrets
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.combinators._support.contract_support import (
    CombinatorContract,
    component_divergence,
    pure_measurements,
    zcdp_measurements,
)
from certdp.contracts.contract import Precondition
from certdp.core.postprocess import Function
from certdp.core.transformation import Measurement

from .make_chain_pm import make_chain_pm

INNER = sympy.Symbol("map_0(d_in)", nonnegative=True)

CALLBACKS = {
    "double": lambda y: 2 * y,
    "sign": lambda y: (y > 0) - (y < 0),
    "string": lambda y: f"released {y!r}",
    "coin": lambda y: (y, secrets.randbits(1)),  # randomised, independent of y
}


@st.composite
def arguments(draw):
    inner = draw(
        st.sampled_from(["f64", "i32"]).flatmap(
            lambda T: st.one_of(pure_measurements(T), zcdp_measurements(T))
        )
    )
    name = draw(st.sampled_from(sorted(CALLBACKS)))
    return {"postprocess1": Function(CALLBACKS[name], "ExtrinsicObject"), "measurement0": inner}


def _closed_form(arguments, d_in):
    value = arguments.measurement0.map(d_in)
    return sympy.oo if value == math.inf else Fraction(value)


def _divergence(built, kwargs, x, x_prime):
    return component_divergence(kwargs["measurement0"], x, x_prime), {}


CONTRACT = CombinatorContract(
    constructor=make_chain_pm,
    preconditions=[
        Precondition(
            "postprocess-honest",
            lambda a: isinstance(a.postprocess1, Function),
            "postprocess1 must be a Function built by dp.new_function (honest-but-curious)",
            parameter="postprocess1",
        ),
        Precondition(
            "measurement-valid",
            lambda a: isinstance(a.measurement0, Measurement),
            "measurement0 must be a (valid) measurement",
            parameter="measurement0",
        ),
    ],
    bound=INNER,
    arguments=arguments,
    divergence=_divergence,
    closed_form=_closed_form,
)
