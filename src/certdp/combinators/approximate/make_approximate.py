"""``make_approximate``: a measurement seen under ``Approximate(its measure)``, with delta 0.

Guarantee (make_approximate.tex): for a measurement whose output measure is the max-divergence
or the zero-concentrated divergence, the returned measurement has the same function, the
output measure ``Approximate(measure)`` and the map ``d_in -> (map(d_in), 0.0)``, which is
valid: closeness up to delta = 0 is closeness under the inner measure.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.errors import MakeMeasurementError
from certdp.core.exact_type import type_is
from certdp.core.measures import MaxDivergence, ZeroConcentratedDivergence, approximate
from certdp.core.transformation import Measurement, converted

__all__ = ["make_approximate"]


# proof: begin constructor
@certified
def make_approximate(measurement) -> Measurement:
    """The same release; its loss ``d`` stated as the pair ``(d, 0.0)``."""
    if not isinstance(measurement, Measurement):  # label: is-measurement
        raise MakeMeasurementError("must be a measurement", parameter="measurement")
    measure = measurement.output_measure
    if not type_is(measure, MaxDivergence, ZeroConcentratedDivergence):  # label: measure
        raise MakeMeasurementError(
            f"output measure must be MaxDivergence or ZeroConcentratedDivergence, got {measure}",
            parameter="measurement",
        )

    def privacy_map(d_in) -> tuple:
        return convert(measurement.map(d_in))  # label: inner-map

    def convert(loss) -> tuple:
        return loss, 0.0  # label: pair

    converting = Measurement(
        input_domain=measurement.input_domain,
        function=measurement.invoke,  # label: function
        input_metric=measurement.input_metric,
        output_measure=approximate(measure),  # label: output-measure
        privacy_map=privacy_map,
    )
    converted(converting, measurement, convert)  # label: node
    return converting


# proof: end constructor
