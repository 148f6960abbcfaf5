"""Contract of ``make_zCDP_to_approxDP``: the theorem of make_zCDP_to_approxDP.tex, executable.

The map returns a privacy profile.  At every epsilon of a fixed list, its delta must be at
least the infimum over orders of the Canonne--Kamath--Steinke bound evaluated with mpmath at
80 digits, for the inner map's rho (run time) or for the exact zCDP divergence of a pair of
inputs under the inner Gaussian (test time).
"""

from dataclasses import dataclass

import mpmath
import sympy
from hypothesis import strategies as st

from certdp.combinators._support.contract_support import (
    EPSILONS,
    CombinatorContract,
    check_profile,
    component_divergence,
    mp_cdp_delta,
    zcdp_measurements,
)
from certdp.contracts.contract import Precondition, PrivacyViolation
from certdp.core.measures import ZeroConcentratedDivergence
from certdp.core.transformation import Measurement

from .make_zCDP_to_approxDP import make_zCDP_to_approxDP

RHO, EPSILON = sympy.symbols("rho epsilon", nonnegative=True)
ORDER = sympy.Symbol("alpha", positive=True)

#: The conversion bound at one order alpha > 1 (any order is valid; the map searches one).
CKS_BOUND = sympy.exp((ORDER - 1) * (ORDER * RHO - EPSILON) + ORDER * sympy.log(1 - 1 / ORDER)) / (
    ORDER - 1
)


def arguments():
    return (
        st.sampled_from(["f64", "i32"]).flatmap(zcdp_measurements).map(lambda m: {"measurement": m})
    )


@dataclass
class ProfileContract(CombinatorContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        check_profile(d_out, arguments.measurement.map(d_in), self.name, "privacy-map")

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        rho = component_divergence(kwargs["measurement"], x, x_prime)
        if rho == sympy.oo:
            if any(stated.delta(epsilon) < 1 for epsilon in EPSILONS):
                raise PrivacyViolation(
                    x=x, x_prime=x_prime, d_in=d_in, divergence=rho, d_out_stated=stated
                )
            return 1.0
        for epsilon in EPSILONS:
            smallest = mp_cdp_delta(rho, epsilon)
            if mpmath.mpf(stated.delta(epsilon)) < smallest:
                raise PrivacyViolation(
                    x=x,
                    x_prime=x_prime,
                    d_in=d_in,
                    divergence=f"delta({epsilon}) >= {mpmath.nstr(smallest, 20)}",
                    d_out_stated=stated.delta(epsilon),
                )
        at_one = stated.delta(1.0)
        return float(mp_cdp_delta(rho, 1.0) / at_one) if at_one else 0.0


CONTRACT = ProfileContract(
    constructor=make_zCDP_to_approxDP,
    preconditions=[
        Precondition(
            "measurement-zcdp",
            lambda a: (
                isinstance(a.measurement, Measurement)
                and isinstance(a.measurement.output_measure, ZeroConcentratedDivergence)
            ),
            "measurement must be a (valid) measurement with output measure "
            "ZeroConcentratedDivergence",
            parameter="measurement",
        ),
    ],
    bound=CKS_BOUND,
    arguments=arguments,
    closed_form=None,
)
