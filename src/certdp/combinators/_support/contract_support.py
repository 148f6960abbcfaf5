"""What the contracts of the combinators share.

A combinator's guarantee is stated in terms of the maps of the measurements it receives.  Its
contract therefore evaluates the proof's closed form from the inner maps at the given
``d_in``, exactly (fractions) or in arbitrary precision (mpmath), instead of substituting
parameters in a sympy expression, and it measures the divergence of a pair of inputs through
the contracts of the inner measurements:

* inner measurements are drawn as built Laplace (pure DP) or Gaussian (zCDP) measurements
  with their arguments attached, so that the exact divergence of a pair of inputs under each
  of them is computed by its own contract (``component_divergence``);
* :func:`mp_cdp_delta` is the infimum over orders of the Canonne--Kamath--Steinke bound,
  computed with mpmath at 80 digits: the smallest delta the conversion's proof can claim.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import mpmath
from hypothesis import strategies as st

from certdp.contracts.contract import MeasurementContract, as_rational, at_least, contract_of
from certdp.core.domains import atom_domain
from certdp.core.errors import ContractError
from certdp.core.metrics import absolute_distance

__all__ = [
    "CombinatorContract",
    "pure_measurements",
    "zcdp_measurements",
    "approximate_zcdp_measurements",
    "FIXED_DELTAS",
    "component_divergence",
    "mp_cdp_delta",
    "EPSILONS",
]

#: The epsilons at which privacy profiles are checked.
EPSILONS = (0.0, 0.1, 0.5, 1.0, 2.0, 5.0)


@dataclass
class CombinatorContract(MeasurementContract):
    """A measurement contract whose bound is computed from the inner maps at ``d_in``:
    ``closed_form(arguments, d_in)`` returns the exact value of the proof's bound."""

    closed_form: Callable | None = None

    def exact_bound(self, arguments, built, d_in):
        return as_rational(self.closed_form(arguments, d_in))


def _attach(constructor, kwargs):
    built = constructor(**kwargs)
    built.contract_arguments = kwargs
    built.contract = contract_of(constructor)
    return built


def _space(T):
    atom = atom_domain(T=T, nan=False) if T == "f64" else atom_domain(T=T)
    return {"input_domain": atom, "input_metric": absolute_distance(T=T)}


_SCALES = st.sampled_from([0.5, 1.0, 2.0, 3.0, 0.25, 10.0])


def pure_measurements(T: str) -> st.SearchStrategy:
    """Built Laplace measurements (pure DP) on one atom domain of ``T``."""
    from certdp.measurements.laplace import make_laplace

    return _SCALES.map(lambda scale: _attach(make_laplace, {**_space(T), "scale": scale}))


def zcdp_measurements(T: str) -> st.SearchStrategy:
    """Built Gaussian measurements (zCDP) on one atom domain of ``T``."""
    from certdp.measurements.gaussian import make_gaussian

    return _SCALES.map(lambda scale: _attach(make_gaussian, {**_space(T), "scale": scale}))


#: The deltas an inner Approximate(ZeroConcentratedDivergence) measurement states beside rho.
FIXED_DELTAS = (0.0, 1e-300, 1.1102230246251565e-16, 1e-9, 1e-7)


def _with_fixed_delta(gaussian, fixed):
    """The Gaussian's release under ``Approximate(ZeroConcentratedDivergence)``, its map
    ``d_in -> (gaussian.map(d_in), fixed)``: every pair of its releases is ``(rho, 0)``-close
    with rho the Gaussian's, so also ``(rho, fixed)``-close; ``inner_zcdp`` is the Gaussian
    (whose contract gives the exact rho of a pair) and ``fixed_delta`` the stated delta."""
    from certdp.core.measures import approximate, zero_concentrated_divergence
    from certdp.core.transformation import Measurement

    built = Measurement(
        input_domain=gaussian.input_domain,
        function=gaussian.invoke,
        input_metric=gaussian.input_metric,
        output_measure=approximate(zero_concentrated_divergence()),
        privacy_map=lambda d_in: (gaussian.map(d_in), fixed),
    )
    built.inner_zcdp = gaussian
    built.fixed_delta = fixed
    return built


def approximate_zcdp_measurements(T: str, fixed: tuple = FIXED_DELTAS) -> st.SearchStrategy:
    """Gaussian measurements on one atom domain of ``T`` under
    ``Approximate(ZeroConcentratedDivergence)``, stating a delta drawn from ``fixed``."""
    drawn = st.tuples(zcdp_measurements(T), st.sampled_from(fixed))
    return drawn.map(lambda pair: _with_fixed_delta(*pair))


def component_divergence(measurement, x, x_prime):
    """The exact divergence of the pair under one inner measurement, from its contract."""
    divergence, _ = measurement.contract.divergence(
        measurement, measurement.contract_arguments, x, x_prime
    )
    return divergence


def mp_cdp_delta(rho, epsilon) -> mpmath.mpf:
    """inf over a > 1 of min(1, exp((a-1)(a rho - eps) + a ln(1 - 1/a)) / (a - 1)), at 80
    digits (the exponent is convex in a; its derivative (2a-1) rho - eps + ln(1-1/a) + ...
    is found by bisection on the stationarity condition)."""
    if rho == 0 or epsilon == math.inf:
        return mpmath.mpf(0)
    if rho == math.inf:  # nothing is known about the pair: only delta = 1 is valid
        return mpmath.mpf(1)
    with mpmath.workdps(80):
        rho, epsilon = (
            mpmath.mpf(Fraction(rho).numerator) / Fraction(rho).denominator,
            (mpmath.mpf(Fraction(epsilon).numerator) / Fraction(epsilon).denominator),
        )
        if rho == 0:
            return mpmath.mpf(0)

        def bound(a):
            return mpmath.exp((a - 1) * (a * rho - epsilon) + a * mpmath.log1p(-1 / a)) / (a - 1)

        def slope(a):  # d/da of ln(bound): increasing in a
            return (2 * a - 1) * rho - epsilon + mpmath.log1p(-1 / a)  # log1p: a reaches 1e162

        low, high = mpmath.mpf(1) + mpmath.mpf(10) ** -30, (epsilon + 1) / (2 * rho) + 2
        # geometric midpoints: the bracket spans up to ~2^1075 for a subnormal rho, which 400
        # arithmetic halvings did not close (the bound was then read at a far-off order)
        for _ in range(4000):
            if high - low <= high * mpmath.mpf(10) ** -60:
                break
            middle = mpmath.sqrt(low * high)
            if slope(middle) < 0:
                low = middle
            else:
                high = middle
        return min(mpmath.mpf(1), bound(high), bound(low))


def check_profile(profile, rho, name: str, condition: str) -> None:
    """At every epsilon of EPSILONS, the profile's delta must be >= mp_cdp_delta(rho, eps)."""
    for epsilon in EPSILONS:
        stated = profile.delta(epsilon)
        smallest = mp_cdp_delta(rho, epsilon)
        if mpmath.mpf(stated) < smallest:
            raise ContractError(
                f"{name}: delta({epsilon}) = {stated!r} is below the conversion bound "
                f"{mpmath.nstr(smallest, 20)} for rho = {rho}",
                condition=condition,
            )


__all__ += ["check_profile", "at_least"]
