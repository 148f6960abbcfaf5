"""Contract of ``make_fixed_approxDP_to_approxDP``: the theorem of its proof, executable.

The map returns a privacy profile.  At run time, with ``(epsilon0, delta0)`` the inner map's
pair, its delta must be at least ``delta0`` at every ``e >= epsilon0`` and at least
``min(1, delta0)`` below, at the epsilons of a fixed list and at ``epsilon0`` and the float
below it.  At test time the inner measurement is ``make_fix_delta`` of a converted Gaussian
(its delta must be at least the Canonne--Kamath--Steinke bound, at 80 digits, for the exact
zCDP divergence of the pair) or ``make_approximate`` of a Laplace measurement (its delta must
be at least 0 where ``e`` is at least the pair's exact max-divergence).
"""

import math
from dataclasses import dataclass

import mpmath
import sympy
from hypothesis import strategies as st

from certdp.combinators._support.contract_support import (
    EPSILONS,
    CombinatorContract,
    component_divergence,
    mp_cdp_delta,
    pure_measurements,
    zcdp_measurements,
)
from certdp.combinators.approximate import make_approximate
from certdp.combinators.fix_delta import make_fix_delta
from certdp.combinators.zCDP_to_approxDP import make_zCDP_to_approxDP
from certdp.contracts.contract import Precondition, PrivacyViolation, at_least
from certdp.core.errors import ContractError
from certdp.core.measures import ApproximateDivergence, MaxDivergence
from certdp.core.transformation import Measurement

from .make_fixed_approxDP_to_approxDP import make_fixed_approxDP_to_approxDP

EPSILON0, DELTA0, E = sympy.symbols("epsilon0 delta0 e", nonnegative=True)


def _fixed(gaussian, delta):
    inner = make_fix_delta(make_zCDP_to_approxDP(gaussian), delta)
    inner.inner_zcdp = gaussian
    return inner


def _approximate(laplace):
    inner = make_approximate(laplace)
    inner.inner_pure = laplace
    return inner


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f64", "i32"]))
    if draw(st.booleans()):
        delta = draw(st.sampled_from([1e-6, 1e-3, 1e-9, 0.5, 0.0, 1.0]))
        inner = _fixed(draw(zcdp_measurements(T)), delta)
    else:
        inner = _approximate(draw(pure_measurements(T)))
    return {"measurement": inner}


def _points(epsilon0) -> list:
    below = [math.nextafter(float(epsilon0), 0.0)] if 0 < epsilon0 < math.inf else []
    return [*EPSILONS, epsilon0, *below]


@dataclass
class FixedProfileContract(CombinatorContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        epsilon0, delta0 = arguments.measurement.map(d_in)
        for e in _points(epsilon0):
            smallest = delta0 if e >= epsilon0 else min(1, delta0)
            if not at_least(d_out.delta(e), smallest):
                raise ContractError(
                    f"{self.name}: delta({e!r}) = {d_out.delta(e)!r} is below {smallest!r}, "
                    f"implied by the pair ({epsilon0!r}, {delta0!r})",
                    condition="privacy-map",
                )

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        inner = kwargs["measurement"]
        if hasattr(inner, "inner_zcdp"):
            rho = component_divergence(inner.inner_zcdp, x, x_prime)
            required = {e: (1 if rho == sympy.oo else mp_cdp_delta(rho, e)) for e in EPSILONS}
        else:
            epsilon = component_divergence(inner.inner_pure, x, x_prime)
            required = {e: (0 if at_least(e, epsilon) else None) for e in EPSILONS}
        for e, smallest in required.items():
            if smallest is not None and mpmath.mpf(stated.delta(e)) < smallest:
                raise PrivacyViolation(
                    x=x,
                    x_prime=x_prime,
                    d_in=d_in,
                    divergence=f"delta({e}) >= {mpmath.nstr(mpmath.mpf(smallest), 20)}",
                    d_out_stated=stated.delta(e),
                )
        at_one = stated.delta(1.0)
        smallest = required[1.0]
        return float(mpmath.mpf(smallest) / at_one) if at_one and smallest is not None else 0.0


CONTRACT = FixedProfileContract(
    constructor=make_fixed_approxDP_to_approxDP,
    preconditions=[
        Precondition(
            "measurement-approximate-dp",
            lambda a: (
                isinstance(a.measurement, Measurement)
                and type(a.measurement.output_measure) is ApproximateDivergence
                and type(a.measurement.output_measure.measure) is MaxDivergence
            ),
            "measurement must be a (valid) measurement with output measure "
            "Approximate(MaxDivergence)",
            parameter="measurement",
        ),
    ],
    bound=sympy.Piecewise((DELTA0, E >= EPSILON0), (sympy.Min(1, DELTA0), True)),
    arguments=arguments,
    closed_form=None,
)
