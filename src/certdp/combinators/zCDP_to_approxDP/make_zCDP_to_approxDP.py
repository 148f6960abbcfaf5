"""``make_zCDP_to_approxDP``: a zCDP measurement seen under approximate DP.

Guarantee (make_zCDP_to_approxDP.tex): for a measurement whose output measure is the
zero-concentrated divergence, the returned measurement has the same function, the smoothed
max-divergence as output measure, and the privacy map ``d_in -> PrivacyProfile(epsilon ->
cdp_delta(map(d_in), epsilon))``, which is valid: at every epsilon the profile's delta is at
least the bound of Canonne, Kamath and Steinke (2020), rounded up.
"""

from __future__ import annotations

from certdp.combinators._conversion import cdp_delta
from certdp.contracts import certified
from certdp.core.errors import MakeMeasurementError, type_mismatch
from certdp.core.measures import PrivacyProfile, ZeroConcentratedDivergence, smoothed_max_divergence
from certdp.core.transformation import Measurement, converted

__all__ = ["make_zCDP_to_approxDP"]


# proof: begin constructor
@certified
def make_zCDP_to_approxDP(measurement) -> Measurement:
    """The same release; its rho turned into the curve epsilon -> delta(epsilon)."""
    if not isinstance(measurement, Measurement):  # label: is-measurement
        raise type_mismatch(MakeMeasurementError)("must be a measurement", parameter="measurement")
    if not isinstance(measurement.output_measure, ZeroConcentratedDivergence):  # label: measure
        raise MakeMeasurementError(
            f"output measure must be ZeroConcentratedDivergence, got {measurement.output_measure}",
            parameter="measurement",
        )

    def privacy_map(d_in) -> PrivacyProfile:
        return convert(measurement.map(d_in))  # label: inner-map

    def convert(rho) -> PrivacyProfile:
        memo = {}  # shared by this profile's evaluations, bounded: saves work, same values  # label: memo
        return PrivacyProfile(lambda epsilon: cdp_delta(rho, epsilon, memo))  # label: profile

    converting = Measurement(
        input_domain=measurement.input_domain,
        function=measurement.invoke,  # label: function
        input_metric=measurement.input_metric,
        output_measure=smoothed_max_divergence(),  # label: output-measure
        privacy_map=privacy_map,
    )
    converted(converting, measurement, convert)  # label: node
    return converting


# proof: end constructor
