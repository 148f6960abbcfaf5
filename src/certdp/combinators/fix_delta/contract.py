"""Contract of ``make_fix_delta``: the theorem of make_fix_delta.tex, executable.

The map returns ``(epsilon, delta)``: at run time, ``delta`` must be the fixed delta and the
inner privacy profile must give at most ``delta`` at ``epsilon``; at test time the inner
measurement is a converted Gaussian, and ``delta`` must be at least the infimum over orders
of the Canonne--Kamath--Steinke bound (mpmath, 80 digits) at ``epsilon`` for the exact zCDP
divergence of the pair.
"""

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy
from hypothesis import strategies as st

from certdp.combinators._support.contract_support import (
    CombinatorContract,
    component_divergence,
    mp_cdp_delta,
    zcdp_measurements,
)
from certdp.combinators.zCDP_to_approxDP import make_zCDP_to_approxDP
from certdp.contracts.common import measurement_with_output_measure
from certdp.contracts.contract import Precondition, PrivacyViolation
from certdp.core.errors import ContractError
from certdp.core.exact_type import type_is
from certdp.core.measures import SmoothedMaxDivergence

from .make_fix_delta import make_fix_delta

EPSILON, DELTA = sympy.symbols("epsilon delta", nonnegative=True)


def _converted(gaussian):
    converted = make_zCDP_to_approxDP(gaussian)
    converted.inner_zcdp = gaussian
    return converted


@st.composite
def arguments(draw):
    gaussian = draw(st.sampled_from(["f64", "i32"]).flatmap(zcdp_measurements))
    delta = draw(st.sampled_from([1e-6, 1e-3, 1e-9, 0.5, 0.0, 1.0]))
    return {"measurement": _converted(gaussian), "delta": delta}


def _delta_valid(delta) -> bool:
    return (
        type_is(delta, int, float, Fraction) and 0 <= delta <= 1 and Fraction(float(delta)) == delta
    )


@dataclass
class FixedDeltaContract(CombinatorContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        epsilon, delta = d_out
        profile = arguments.measurement.map(d_in)
        if delta != arguments.delta or (
            not math.isinf(epsilon) and not profile.delta(epsilon) <= delta
        ):
            raise ContractError(
                f"{self.name}: map({d_in}) = {d_out!r}, but the profile gives "
                f"{profile.delta(epsilon)!r} at epsilon {epsilon!r} (delta {arguments.delta})",
                condition="privacy-map",
            )

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        epsilon, delta = stated
        rho = component_divergence(kwargs["measurement"].inner_zcdp, x, x_prime)
        if math.isinf(epsilon):
            return 1.0
        smallest = 1 if rho == sympy.oo else mp_cdp_delta(rho, epsilon)
        if mpmath.mpf(delta) < smallest:
            raise PrivacyViolation(
                x=x,
                x_prime=x_prime,
                d_in=d_in,
                divergence=f"delta({epsilon}) >= {mpmath.nstr(smallest, 20)}",
                d_out_stated=stated,
            )
        return float(smallest / delta) if delta else 0.0


CONTRACT = FixedDeltaContract(
    constructor=make_fix_delta,
    preconditions=[
        measurement_with_output_measure(
            "measurement-smoothed-max-divergence", SmoothedMaxDivergence
        ),
        Precondition(
            "delta-in-unit-interval",
            lambda a: _delta_valid(a.delta),
            "delta must be a number in [0, 1] that is exactly a value of f64",
            parameter="delta",
        ),
    ],
    bound=sympy.Tuple(EPSILON, DELTA),
    arguments=arguments,
    closed_form=None,
)
