"""Contract of ``make_fix_delta``: the theorem of make_fix_delta.tex, executable.

The map returns ``(epsilon, delta)``: at run time, ``delta`` must be the fixed delta and the
inner privacy profile must give at most ``delta`` at ``epsilon``; at test time the inner
measurement is a converted Gaussian, and ``delta`` must be at least the infimum over orders
of the Canonne--Kamath--Steinke bound (mpmath, 80 digits) at ``epsilon`` for the exact zCDP
divergence of the pair.  Under Approximate(SmoothedMaxDivergence), whose inner map gives
``(profile, fixed)``: at run time the profile at ``epsilon`` plus ``fixed`` must be at most
``delta`` (exact rationals); at test time the inner measurement is a converted Gaussian stating
``fixed`` beside its rho, and ``delta`` must be at least that bound plus ``fixed``, the sum and
the comparison made in exact rationals (the 80-digit bound read as the rational it is).
"""

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy
from hypothesis import strategies as st

from certdp.combinators._support.contract_support import (
    CombinatorContract,
    approximate_zcdp_measurements,
    component_divergence,
    mp_cdp_delta,
    zcdp_measurements,
)
from certdp.combinators.zCDP_to_approxDP import make_zCDP_to_approxDP
from certdp.contracts.contract import Precondition, PrivacyViolation
from certdp.core.errors import ContractError
from certdp.core.exact_type import type_is
from certdp.core.measures import ApproximateDivergence, SmoothedMaxDivergence
from certdp.core.transformation import Measurement

from .make_fix_delta import make_fix_delta

EPSILON, DELTA = sympy.symbols("epsilon delta", nonnegative=True)


def _converted(inner):
    converted = make_zCDP_to_approxDP(inner)
    converted.inner_zcdp = getattr(inner, "inner_zcdp", inner)
    return converted


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["f64", "i32"]))
    if draw(st.booleans()):
        gaussian = draw(zcdp_measurements(T))
        delta = draw(st.sampled_from([1e-6, 1e-3, 1e-9, 0.5, 0.0, 1.0]))
        return {"measurement": _converted(gaussian), "delta": delta}
    # Approximate(SmoothedMaxDivergence): a stated delta below the total (the map refuses
    # delta <= fixed)
    delta = draw(st.sampled_from([1e-6, 1e-3, 1e-9, 0.5, 1.0]))
    fixed = (0.0, 1e-300, 1.1102230246251565e-16, delta / 4, delta / 2)
    inner = draw(approximate_zcdp_measurements(T, fixed))
    return {"measurement": _converted(inner), "delta": delta}


def _pair_measure(measure) -> bool:
    return type(measure) is ApproximateDivergence and type(measure.measure) is SmoothedMaxDivergence


def _profile_or_pair(measurement) -> bool:
    return isinstance(measurement, Measurement) and (
        isinstance(measurement.output_measure, SmoothedMaxDivergence)
        or _pair_measure(measurement.output_measure)
    )


def _delta_valid(delta) -> bool:
    return (
        type_is(delta, int, float, Fraction) and 0 <= delta <= 1 and Fraction(float(delta)) == delta
    )


@dataclass
class FixedDeltaContract(CombinatorContract):
    def check_map_value(self, arguments, built, d_in, d_out) -> None:
        epsilon, delta = d_out
        inner = arguments.measurement.map(d_in)
        profile, fixed = (
            inner if _pair_measure(arguments.measurement.output_measure) else (inner, 0)
        )
        at_epsilon = None if math.isinf(epsilon) else profile.delta(epsilon)
        if delta != arguments.delta or (
            at_epsilon is not None and not Fraction(at_epsilon) + Fraction(fixed) <= Fraction(delta)
        ):
            raise ContractError(
                f"{self.name}: map({d_in}) = {d_out!r}, but the profile gives "
                f"{at_epsilon!r} at epsilon {epsilon!r}, plus the inner delta {fixed!r} "
                f"(delta {arguments.delta})",
                condition="privacy-map",
            )

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        epsilon, delta = stated
        measurement = kwargs["measurement"]
        rho = component_divergence(measurement.inner_zcdp, x, x_prime)
        fixed = measurement.map(d_in)[1] if _pair_measure(measurement.output_measure) else 0
        if math.isinf(epsilon):
            return 1.0
        bound = 1 if rho == sympy.oo else _exact(mp_cdp_delta(rho, epsilon))
        # plus the inner pair's delta, the theorem's sum, exactly: no rounding can hide a sum
        # that exceeds the stated delta
        smallest = min(Fraction(1), bound + Fraction(fixed))
        if Fraction(delta) < smallest:
            raise PrivacyViolation(
                x=x,
                x_prime=x_prime,
                d_in=d_in,
                divergence=f"delta({epsilon}) >= {float(smallest)!r} ({smallest})",
                d_out_stated=stated,
            )
        return float(smallest / Fraction(delta)) if delta else 0.0


#: A bound below this is read as this (an upper bound of it): two f64 numbers differ by 0 or
#: by at least 2^-1074, so ``delta < bound + fixed`` is unchanged for f64 ``delta`` and
#: ``fixed`` (and can only fail more often otherwise), and the rational stays small (an
#: 80-digit bound such as exp(-1e10) has an exponent no Fraction should be built from).
_TINY = Fraction(1, 2**1200)


def _exact(value) -> Fraction:
    """The exact rational value of a finite mpmath number ``>= 0`` (a binary float: mantissa
    * 2**exp, read from the number as stored, whatever the current precision; an ``int`` or
    ``float`` as itself), or :data:`_TINY` when it is positive and below it."""
    if not isinstance(value, mpmath.mpf):
        exact = Fraction(value)
        return _TINY if 0 < exact < _TINY else exact
    # not mpmath.mpf(value): that rounds to the current precision (53 bits outside workdps)
    mantissa, exponent = value.man_exp
    if mantissa and exponent + mantissa.bit_length() < -1200:
        return _TINY
    return Fraction(mantissa) * Fraction(2) ** exponent


CONTRACT = FixedDeltaContract(
    constructor=make_fix_delta,
    preconditions=[
        Precondition(
            "measurement-smoothed-max-divergence",
            lambda a: _profile_or_pair(a.measurement),
            "measurement must be a (valid) measurement with output measure "
            "SmoothedMaxDivergence or Approximate(SmoothedMaxDivergence)",
            parameter="measurement",
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
