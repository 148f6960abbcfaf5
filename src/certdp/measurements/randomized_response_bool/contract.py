"""Contract of ``make_randomized_response_bool``: the theorem of
make_randomized_response_bool.tex, executable.  The pair's divergence is computed from the exact
output laws ``{x: p, not x: 1 - p}``."""

from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, MeasurementContract, Precondition, as_rational
from certdp.measurements._randomized_response.contract_support import max_divergence

from .make_randomized_response_bool import make_randomized_response_bool

PROB = sympy.Symbol("prob", positive=True)

BOUND = sympy.Piecewise(
    (0, D_IN < 1),
    (sympy.log(PROB / (1 - PROB)), True),
)


def _law(prob, x):
    p = Fraction(prob)
    return {x: p, not x: 1 - p}


def _divergence(built, kwargs, x, x_prime):
    return max_divergence(_law(kwargs["prob"], x), _law(kwargs["prob"], x_prime))


def arguments():
    probs = st.one_of(
        st.sampled_from([0.5, 0.75, 0.99, 0.5000000000000001, 0.9999999999999999]),
        st.floats(0.5, 1.0, exclude_max=True),
    )
    return st.fixed_dictionaries({"prob": probs, "constant_time": st.booleans()})


#: The symbols of BOUND, for the docs page.
SYMBOL_MEANINGS = {"prob": "the probability ``prob`` of releasing the true value"}

CONTRACT = MeasurementContract(
    constructor=make_randomized_response_bool,
    preconditions=[
        Precondition(
            "prob-in-range",
            lambda a: type(a.prob) is float and 0.5 <= a.prob < 1.0,
            "prob must be a float in [0.5, 1)",
            parameter="prob",
        ),
        Precondition(
            "constant-time-bool",
            lambda a: type(a.constant_time) is bool,
            "constant_time must be a bool",
            parameter="constant_time",
        ),
    ],
    bound=BOUND,
    parameters=lambda arguments, built: {PROB: as_rational(arguments.prob)},
    arguments=arguments,
    d_in=lambda built: st.sampled_from([0, 1, 2, 0.5]),
    divergence=_divergence,
)
