"""``make_fix_delta``: an approximate-DP measurement with delta fixed.

Guarantee (make_fix_delta.tex): for a measurement whose output measure is the smoothed
max-divergence and a ``delta`` in ``[0, 1]``, the returned measurement has the same function,
the output measure ``Approximate(MaxDivergence)`` and the map ``d_in -> (epsilon, delta)``
where ``epsilon = map(d_in).epsilon(delta)`` is a point at which the profile was evaluated
and found ``<= delta``; the map is valid.  Under ``Approximate(SmoothedMaxDivergence)``, whose
map gives a pair ``(profile, fixed)``, ``delta`` is the total as in OpenDP 0.16: the profile
is read at ``delta - fixed`` rounded down (the map refuses ``delta <= fixed``), so that the
profile's delta plus ``fixed`` is at most ``delta``, exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.combinators._conversion import is_delta
from certdp.contracts import certified
from certdp.core.errors import FailedMapError, MakeMeasurementError, shown, type_mismatch
from certdp.core.exact_type import type_is
from certdp.core.measures import (
    ApproximateDivergence,
    PrivacyProfile,
    SmoothedMaxDivergence,
    approximate,
    max_divergence,
)
from certdp.core.transformation import Measurement, converted
from certdp.numeric import neg_inf_cast

__all__ = ["make_fix_delta"]


# proof: begin constructor
@certified
def make_fix_delta(measurement, delta) -> Measurement:
    """The same release; the privacy profile read at ``delta`` (under
    ``Approximate(SmoothedMaxDivergence)``, ``delta`` is the total: the profile is read at
    ``delta`` minus the inner pair's delta, rounded down)."""
    if not isinstance(measurement, Measurement):  # label: is-measurement
        raise type_mismatch(MakeMeasurementError)("must be a measurement", parameter="measurement")
    measure = measurement.output_measure
    pair = (  # label: pair-measure
        type(measure) is ApproximateDivergence and type(measure.measure) is SmoothedMaxDivergence
    )
    if not (isinstance(measure, SmoothedMaxDivergence) or pair):  # label: measure
        raise MakeMeasurementError(
            "output measure must be SmoothedMaxDivergence or "
            f"Approximate(SmoothedMaxDivergence), got {measure}",
            parameter="measurement",
        )
    if not type_is(delta, int, float, Fraction):  # label: delta-type
        raise type_mismatch(MakeMeasurementError)(
            f"must be a number, got a {type(delta).__name__}", parameter="delta"
        )
    if not 0 <= delta <= 1:  # label: delta-range
        raise MakeMeasurementError("must lie in [0, 1] (and not be NaN)", parameter="delta")
    if type(delta) is float and math.copysign(1.0, delta) < 0:  # label: delta-sign
        raise MakeMeasurementError("must not be negative, got -0.0", parameter="delta")
    as_float = float(delta)  # in [0, 1]: no overflow
    if Fraction(as_float) != delta:  # label: delta-exact
        raise MakeMeasurementError("must be exactly a value of f64", parameter="delta")
    delta = as_float  # label: delta-float

    def privacy_map(d_in) -> tuple[float, float]:
        return convert(measurement.map(d_in))  # label: inner-map

    def convert(distance) -> tuple[float, float]:
        if not pair:
            return read(distance, delta), delta  # label: plain
        if type(distance) is not tuple or len(distance) != 2:  # label: inner-pair
            raise FailedMapError(
                f"the inner map must return a pair (profile, delta), got {distance!r}",
                parameter="measurement",
            )
        profile, fixed = distance
        if not is_delta(fixed):  # label: inner-delta
            raise FailedMapError(
                f"the inner map's delta must be a number in [0, 1], got {fixed!r}",
                parameter="measurement",
            )
        if not fixed < delta:  # label: below-fixed
            raise FailedMapError(
                f"must exceed the delta {shown(fixed)} the inner map gives at this d_in",
                parameter="delta",
            )
        remaining = neg_inf_cast(Fraction(delta) - Fraction(fixed))  # label: remaining
        return read(profile, remaining), delta  # label: pair

    def read(profile, budget) -> float:
        if not type_is(profile, PrivacyProfile):  # label: is-profile
            raise FailedMapError(
                "the inner map must give a PrivacyProfile under SmoothedMaxDivergence, "
                f"got a {type(profile).__name__}",
                parameter="measurement",
            )
        epsilon = profile.epsilon(budget)  # label: epsilon
        if not math.isinf(epsilon) and not profile.delta(epsilon) <= budget:  # label: recheck
            raise FailedMapError(
                f"the profile gives no epsilon for delta {shown(budget)}", parameter="delta"
            )
        return epsilon  # label: read

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
