"""``make_zCDP_to_approxDP``: a zCDP measurement seen under approximate DP.

Guarantee (make_zCDP_to_approxDP.tex): for a measurement whose output measure is the
zero-concentrated divergence, the returned measurement has the same function, the smoothed
max-divergence as output measure, and the privacy map ``d_in -> PrivacyProfile(epsilon ->
cdp_delta(map(d_in), epsilon))``, which is valid: at every epsilon the profile's delta is at
least the bound of Canonne, Kamath and Steinke (2020), rounded up.  For a measurement under
``Approximate(ZeroConcentratedDivergence)`` whose map gives ``(rho, delta)``, the output measure
is ``Approximate(SmoothedMaxDivergence)`` and the map gives ``(that profile of rho, delta)``,
delta unchanged (as OpenDP 0.16 does).
"""

from __future__ import annotations

from certdp.combinators._conversion import cdp_delta, is_delta
from certdp.contracts import certified
from certdp.core.errors import FailedMapError, MakeMeasurementError, type_mismatch
from certdp.core.measures import (
    ApproximateDivergence,
    PrivacyProfile,
    ZeroConcentratedDivergence,
    approximate,
    smoothed_max_divergence,
)
from certdp.core.transformation import Measurement, converted

__all__ = ["make_zCDP_to_approxDP"]


# proof: begin constructor
@certified
def make_zCDP_to_approxDP(measurement) -> Measurement:
    """The same release; its rho turned into the curve epsilon -> delta(epsilon) (and, under
    ``Approximate(ZeroConcentratedDivergence)``, its delta kept beside the curve)."""
    if not isinstance(measurement, Measurement):  # label: is-measurement
        raise type_mismatch(MakeMeasurementError)("must be a measurement", parameter="measurement")
    measure = measurement.output_measure
    pair = (  # label: pair-measure
        type(measure) is ApproximateDivergence
        and type(measure.measure) is ZeroConcentratedDivergence
    )
    if not (isinstance(measure, ZeroConcentratedDivergence) or pair):  # label: measure
        raise MakeMeasurementError(
            "output measure must be ZeroConcentratedDivergence or "
            f"Approximate(ZeroConcentratedDivergence), got {measure}",
            parameter="measurement",
        )

    def privacy_map(d_in):
        return convert(measurement.map(d_in))  # label: inner-map

    def convert(distance):
        if not pair:
            return curve(distance)  # label: plain
        if type(distance) is not tuple or len(distance) != 2:  # label: inner-pair
            raise FailedMapError(
                f"the inner map must return a pair (rho, delta), got {distance!r}",
                parameter="measurement",
            )
        rho, delta = distance
        if not is_delta(delta):  # label: inner-delta
            raise FailedMapError(
                f"the inner map's delta must be a number in [0, 1], got {delta!r}",
                parameter="measurement",
            )
        return curve(rho), delta  # label: pair

    def curve(rho) -> PrivacyProfile:
        memo = {}  # shared by this profile's evaluations, bounded: saves work, same values  # label: memo
        return PrivacyProfile(lambda epsilon: cdp_delta(rho, epsilon, memo))  # label: profile

    converting = Measurement(
        input_domain=measurement.input_domain,
        function=measurement.invoke,  # label: function
        input_metric=measurement.input_metric,
        output_measure=(  # label: output-measure
            approximate(smoothed_max_divergence()) if pair else smoothed_max_divergence()
        ),
        privacy_map=privacy_map,
    )
    converted(converting, measurement, convert)  # label: node
    return converting


# proof: end constructor
