"""Contract of ``make_zCDP_to_approxDP``: the theorem of make_zCDP_to_approxDP.tex, executable.

The map returns a privacy profile.  At every epsilon of a fixed list, its delta must be at
least the infimum over orders of the Canonne--Kamath--Steinke bound evaluated with mpmath at
80 digits, for the inner map's rho (run time) or for the exact zCDP divergence of a pair of
inputs under the inner Gaussian (test time).  Under Approximate(ZeroConcentratedDivergence)
the map returns a pair (profile, delta): the profile is checked so against the pair's rho, and
delta must equal the inner map's delta (run time: exactly; test time: at least the delta the
inner measurement states, while its releases are (rho, 0)-close).
"""

from dataclasses import dataclass

import mpmath
import sympy
from hypothesis import strategies as st

from certdp.combinators._support.contract_support import (
    EPSILONS,
    CombinatorContract,
    approximate_zcdp_measurements,
    check_profile,
    component_divergence,
    mp_cdp_delta,
    zcdp_measurements,
)
from certdp.contracts.contract import Precondition, PrivacyViolation
from certdp.core.errors import ContractError
from certdp.core.measures import ApproximateDivergence, ZeroConcentratedDivergence
from certdp.core.transformation import Measurement

from .make_zCDP_to_approxDP import make_zCDP_to_approxDP

RHO, EPSILON = sympy.symbols("rho epsilon", nonnegative=True)
ORDER = sympy.Symbol("alpha", positive=True)

#: The conversion bound at one order alpha > 1 (any order is valid; the map searches one).
CKS_BOUND = sympy.exp((ORDER - 1) * (ORDER * RHO - EPSILON) + ORDER * sympy.log(1 - 1 / ORDER)) / (
    ORDER - 1
)


def arguments():
    measurements = st.sampled_from(["f64", "i32"]).flatmap(
        lambda T: st.one_of(zcdp_measurements(T), approximate_zcdp_measurements(T))
    )
    return measurements.map(lambda m: {"measurement": m})


def _approximate_zcdp(measure) -> bool:
    return (
        type(measure) is ApproximateDivergence
        and type(measure.measure) is ZeroConcentratedDivergence
    )


def _zcdp_or_approximate(measurement) -> bool:
    return isinstance(measurement, Measurement) and (
        isinstance(measurement.output_measure, ZeroConcentratedDivergence)
        or _approximate_zcdp(measurement.output_measure)
    )


@dataclass
class ProfileContract(CombinatorContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        inner = arguments.measurement.map(d_in)
        if not _approximate_zcdp(arguments.measurement.output_measure):
            check_profile(d_out, inner, self.name, "privacy-map")
            return
        rho, fixed = inner
        if not (type(d_out) is tuple and len(d_out) == 2 and d_out[1] == fixed):
            raise ContractError(
                f"{self.name}: map({d_in}) = {d_out!r} must be (profile, {fixed!r}), the inner "
                f"map's delta kept",
                condition="privacy-map",
            )
        check_profile(d_out[0], rho, self.name, "privacy-map")

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        measurement = kwargs["measurement"]
        if _approximate_zcdp(measurement.output_measure):
            profile, delta = stated
            if delta < measurement.fixed_delta:
                raise PrivacyViolation(
                    x=x, x_prime=x_prime, d_in=d_in,
                    divergence=f"delta >= {measurement.fixed_delta!r}", d_out_stated=stated,
                )  # fmt: skip
            return self._check_profile_pair(measurement.inner_zcdp, x, x_prime, d_in, profile)
        return self._check_profile_pair(measurement, x, x_prime, d_in, stated)

    def _check_profile_pair(self, gaussian, x, x_prime, d_in, stated) -> float:
        rho = component_divergence(gaussian, x, x_prime)
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
            lambda a: _zcdp_or_approximate(a.measurement),
            "measurement must be a (valid) measurement with output measure "
            "ZeroConcentratedDivergence or Approximate(ZeroConcentratedDivergence)",
            parameter="measurement",
        ),
    ],
    bound=CKS_BOUND,
    arguments=arguments,
    closed_form=None,
)
