"""``make_approximate``: a measurement seen under ``Approximate(its measure)``, with delta 0.

Guarantee (make_approximate.tex): for a measurement whose output measure is the max-divergence
or the zero-concentrated divergence, the returned measurement has the same function, the
output measure ``Approximate(measure)`` and the map ``d_in -> (map(d_in), 0.0)``, which is
valid: closeness up to delta = 0 is closeness under the inner measure.  An inner map whose value
is not a non-negative int, float or Fraction is refused with ``FailedMapError``.
"""

from __future__ import annotations

from certdp.combinators._conversion import is_distance
from certdp.contracts import certified
from certdp.core.errors import FailedMapError, MakeMeasurementError
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
        if not is_distance(loss):  # label: loss
            raise FailedMapError(
                f"the inner map must give a non-negative number under {measure}, "
                f"got a {type(loss).__name__}",
                parameter="measurement",
            )
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
