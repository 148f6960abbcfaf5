"""Contract of ``make_lipschitz_float_mul``: the theorem of make_lipschitz_float_mul.tex,
executable.

Preconditions (ids as in the proof), and the bound ``C * d_in + s``: ``C = |constant|`` and
``s`` the spacing of ``T`` at ``w = max(|lower|, |upper|) * C`` rounded up, computed here
independently of the code (exact rationals, NumPy's ``spacing``).
"""

import math
from fractions import Fraction

import numpy as np
import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.domains import AtomDomain, atom_domain, carrier_constant
from certdp.core.errors import ArithmeticOverflowError
from certdp.core.metrics import AbsoluteDistance, absolute_distance
from certdp.numeric import round_rational

from .make_lipschitz_float_mul import make_lipschitz_float_mul

C = sympy.Symbol("C", nonnegative=True)
SPACING = sympy.Symbol("s", positive=True)

SYMBOL_MEANINGS = {
    "C": "the magnitude :math:`|c|` of the ``constant`` (converted to ``T`` as OpenDP does)",
    "s": "the spacing of the floats of ``T`` at :math:`w`, the product "
    ":math:`\\max(|L|, |U|) \\cdot |c|` rounded up: twice the largest rounding error of a "
    "product (the least subnormal when :math:`w = 0`)",
}


def _constant(a) -> float:
    return carrier_constant(a.constant, a.input_domain.T)


def _parameters(a, built) -> dict:
    T = a.input_domain.T
    c = abs(Fraction(_constant(a)))
    lower, upper = atom_domain(bounds=a.bounds, T=T).bounds
    exact = max(abs(Fraction(lower)), abs(Fraction(upper))) * c
    w = round_rational(exact, T.name, "up")
    spacing = Fraction(float(np.spacing(T.numpy_dtype.type(w))))
    return {C: c, SPACING: spacing}


def _finite_floats(T: str):
    width = 32 if T == "f32" else 64
    special = [0.0, -0.0, 1.0, -1.0, 0.1, 3.0, 1e-40 if T == "f32" else 1e-310, 2.0**20]
    special = [float(np.float32(v)) if T == "f32" else v for v in special]
    magnitude = 2.0**60 if T == "f32" else 2.0**500  # products of two stay within range
    return st.one_of(
        st.sampled_from(special),
        st.floats(-magnitude, magnitude, width=width, allow_nan=False, allow_infinity=False),
        st.floats(-(2.0**-100), 2.0**-100, width=width, allow_nan=False, allow_infinity=False),
    )


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    floats = _finite_floats(T)
    lower, upper = sorted([draw(floats), draw(floats)])
    low, high = sorted([draw(floats), draw(floats)])
    if draw(st.integers(0, 3)) == 0 and low < high:  # (hypothesis draws nothing in [0.0, -0.0])
        domain = atom_domain(bounds=(low, high), T=T)
    else:
        domain = atom_domain(T=T, nan=False)
    return {
        "input_domain": domain,
        "input_metric": absolute_distance(T=T),
        "constant": draw(floats),
        "bounds": (lower, upper),
    }


def _bounds_valid(a) -> bool:
    if a.bounds is None:
        return False
    atom_domain(bounds=a.bounds, T=a.input_domain.T)
    return True


CONTRACT = TransformationContract(
    constructor=make_lipschitz_float_mul,
    preconditions=[
        Precondition(
            "input-domain-float-atom-without-nan",
            lambda a: (
                type(a.input_domain) is AtomDomain
                and a.input_domain.T.is_float
                and not a.input_domain.nan
            ),
            "input_domain must be atom_domain(T='f32' or 'f64', nan=False), bounds allowed",
            parameter="input_domain",
        ),
        Precondition(
            "input-metric-absolute",
            lambda a: (
                type(a.input_metric) is AbsoluteDistance and a.input_metric.T == a.input_domain.T
            ),
            "input_metric must be absolute_distance of the input domain's type",
            parameter="input_metric",
        ),
        Precondition(
            "constant-finite",
            lambda a: _constant(a) is not None and math.isfinite(_constant(a)),
            "constant must be a finite value of T",
            parameter="constant",
        ),
        Precondition(
            "bounds-finite-ordered",
            _bounds_valid,
            "bounds must be a pair (lower, upper) of finite values of T with lower <= upper",
            parameter="bounds",
        ),
    ],
    bound=C * D_IN + SPACING,
    parameters=_parameters,
    arguments=arguments,
    refusals=(ArithmeticOverflowError,),
)
# the bound is sound but above the true sensitivity for most parameters (both roundings
# rarely reach half a spacing in opposite directions): a map below it is not suspect by itself
CONTRACT.bound_is_floor = False
