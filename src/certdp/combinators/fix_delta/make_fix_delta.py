"""``make_fix_delta``: an approximate-DP measurement with delta fixed.

Guarantee (make_fix_delta.tex): for a measurement whose output measure is the smoothed
max-divergence and a ``delta`` in ``[0, 1]``, the returned measurement has the same function,
the output measure ``Approximate(MaxDivergence)`` and the map ``d_in -> (epsilon, delta)``
where ``epsilon = map(d_in).epsilon(delta)`` is a point at which the profile was evaluated
and found ``<= delta``; the map is valid.
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.contracts import certified
from certdp.core.errors import FailedMapError, MakeMeasurementError, shown, type_mismatch
from certdp.core.exact_type import type_is
from certdp.core.measures import SmoothedMaxDivergence, approximate, max_divergence
from certdp.core.transformation import Measurement, converted

__all__ = ["make_fix_delta"]


# proof: begin constructor
@certified
def make_fix_delta(measurement, delta) -> Measurement:
    """The same release; the privacy profile read at ``delta``."""
    if not isinstance(measurement, Measurement):  # label: is-measurement
        raise type_mismatch(MakeMeasurementError)("must be a measurement", parameter="measurement")
    if not isinstance(measurement.output_measure, SmoothedMaxDivergence):  # label: measure
        raise MakeMeasurementError(
            f"output measure must be SmoothedMaxDivergence, got {measurement.output_measure}",
            parameter="measurement",
        )
    if not type_is(delta, int, float, Fraction):  # label: delta-type
        raise type_mismatch(MakeMeasurementError)(
            f"must be a number, got a {type(delta).__name__}", parameter="delta"
        )
    if not 0 <= delta <= 1:  # label: delta-range
        raise MakeMeasurementError("must lie in [0, 1] (and not be NaN)", parameter="delta")
    as_float = float(delta)  # in [0, 1]: no overflow
    if Fraction(as_float) != delta:  # label: delta-exact
        raise MakeMeasurementError("must be exactly a value of f64", parameter="delta")
    delta = 0.0 if as_float == 0 else as_float  # label: delta-zero

    def privacy_map(d_in) -> tuple[float, float]:
        return convert(measurement.map(d_in))  # label: inner-map

    def convert(profile) -> tuple[float, float]:
        epsilon = profile.epsilon(delta)  # label: epsilon
        if not math.isinf(epsilon) and not profile.delta(epsilon) <= delta:  # label: recheck
            raise FailedMapError(
                f"the profile gives no epsilon for delta {shown(delta)}", parameter="delta"
            )
        return epsilon, delta  # label: pair

    converting = Measurement(
        input_domain=measurement.input_domain,
        function=measurement.invoke,  # label: function
        input_metric=measurement.input_metric,
        output_measure=approximate(max_divergence()),  # label: output-measure
        privacy_map=privacy_map,
    )
    converted(converting, measurement, convert)  # label: node
    return converting


# proof: end constructor
