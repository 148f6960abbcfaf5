"""``make_fixed_approxDP_to_approxDP``: an (epsilon, delta) measurement seen as a privacy profile.

Guarantee (make_fixed_approxDP_to_approxDP.tex): for a measurement whose output measure is
``Approximate(MaxDivergence)``, the returned measurement has the same function, the smoothed
max-divergence as output measure and the map ``d_in -> PrivacyProfile(e -> delta if e >=
epsilon else 1.0)`` with ``(epsilon, delta) = map(d_in)``, which is valid: an (epsilon,
delta)-close pair is (e, delta)-close for every ``e >= epsilon``, and any pair is (e, 1)-close.
"""

from __future__ import annotations

from certdp.combinators._conversion import is_distance
from certdp.contracts import certified
from certdp.core.errors import FailedMapError, MakeMeasurementError
from certdp.core.measures import (
    ApproximateDivergence,
    MaxDivergence,
    PrivacyProfile,
    smoothed_max_divergence,
)
from certdp.core.transformation import Measurement, converted

__all__ = ["make_fixed_approxDP_to_approxDP"]


# proof: begin constructor
@certified
def make_fixed_approxDP_to_approxDP(measurement) -> Measurement:
    """The same release; its pair ``(epsilon, delta)`` read as the curve ``e -> delta`` for
    ``e >= epsilon`` and ``e -> 1`` below."""
    if not isinstance(measurement, Measurement):  # label: is-measurement
        raise MakeMeasurementError("must be a measurement", parameter="measurement")
    measure = measurement.output_measure
    if not (  # label: measure
        type(measure) is ApproximateDivergence and type(measure.measure) is MaxDivergence
    ):
        raise MakeMeasurementError(
            f"output measure must be Approximate(MaxDivergence), got {measure}",
            parameter="measurement",
        )

    def privacy_map(d_in) -> PrivacyProfile:
        return convert(measurement.map(d_in))  # label: inner-map

    def convert(pair) -> PrivacyProfile:
        if type(pair) is not tuple or len(pair) != 2:  # label: pair
            raise FailedMapError(
                f"the inner map must return a pair (epsilon, delta), got {pair!r}",
                parameter="measurement",
            )
        fixed_epsilon, fixed_delta = pair
        if not (is_distance(fixed_epsilon) and is_distance(fixed_delta)):  # label: numbers
            raise FailedMapError(
                f"the inner map must return two non-negative numbers, got {pair!r}",
                parameter="measurement",
            )

        def curve(epsilon):
            return fixed_delta if epsilon >= fixed_epsilon else 1.0  # label: curve

        return PrivacyProfile(curve)  # label: profile

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
