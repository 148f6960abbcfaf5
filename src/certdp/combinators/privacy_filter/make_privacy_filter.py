"""``make_privacy_filter``: an odometer held to the budget ``d_out`` at ``d_in``.

Guarantee (make_privacy_filter.tex): for an odometer from ``make_fully_adaptive_composition``
under MaxDivergence, ZeroConcentratedDivergence or Approximate of either, a ``d_in`` of its
metric and a ``d_out`` of its measure (a ``delta`` at most 1 under Approximate(zCDP)), the returned measurement releases an
:class:`OdometerQueryable` that refuses, before charging or running it, every measurement that
would take the loss at ``d_in`` above ``d_out``; its map ``d_in' <= d_in -> d_out`` is valid
for every sequence of adaptively chosen measurements under the proof's hypotheses (H1-H4):
under Approximate(zCDP) a queryable created in ANY thread while a query's function runs
stops answering when that function returns (conservative: also one an unrelated thread makes
then; not covered: one made after the function returned by work it left running).
"""

from __future__ import annotations

from certdp.combinators._compose import compose_losses
from certdp.combinators._odometer.odometer import Odometer, OdometerQueryable
from certdp.contracts import certified
from certdp.core.errors import ArithmeticOverflowError, FailedMapError, MakeMeasurementError, shown
from certdp.core.exact_type import type_is
from certdp.core.measures import ApproximateDivergence, MaxDivergence, ZeroConcentratedDivergence
from certdp.core.transformation import Measurement, validate_d_in
from certdp.numeric import inf_cast

__all__ = ["make_privacy_filter"]


# proof: begin constructor
def _stated(value) -> float:
    """The f64 value the map states for the budget ``value``: the smallest ``>= value``
    (``+inf`` past the largest finite f64)."""
    if value == float("inf"):
        return value
    try:
        return inf_cast(value, "f64")  # label: stated
    except ArithmeticOverflowError:
        return float("inf")  # label: stated-overflow


@certified
def make_privacy_filter(odometer, d_in, d_out) -> Measurement:
    """A measurement releasing the odometer's queryable, refusing every query that would take
    the privacy loss at ``d_in`` above ``d_out``."""
    if not isinstance(odometer, Odometer) or odometer.__dict__.get("_fully_adaptive") is not True:
        raise MakeMeasurementError(  # label: odometer
            "must be an odometer from make_fully_adaptive_composition", parameter="odometer"
        )
    measure = odometer.output_measure
    filtered = (MaxDivergence, ZeroConcentratedDivergence)
    if not type_is(measure, *filtered) and not (
        isinstance(measure, ApproximateDivergence) and type_is(measure.measure, *filtered)
    ):  # label: filter-measure
        raise MakeMeasurementError(
            "output measure must be MaxDivergence, ZeroConcentratedDivergence or Approximate "
            f"of either (the measures with a proven filter), got {measure!r}",
            parameter="odometer",
        )
    try:
        d_in = validate_d_in(odometer.input_metric, d_in)  # label: d-in
    except FailedMapError as error:
        raise MakeMeasurementError(str(error).removeprefix("d_in: "), parameter="d_in") from None
    compose_losses(measure, [d_out], MakeMeasurementError, "d_out")  # label: d-out
    approximate_zcdp = isinstance(measure, ApproximateDivergence) and (
        type(measure.measure) is ZeroConcentratedDivergence
    )
    if approximate_zcdp and not d_out[1] <= 1:  # label: delta-at-most-one
        raise MakeMeasurementError(
            f"delta must be at most 1 under {measure!r}, got {d_out[1]!r}", parameter="d_out"
        )
    if isinstance(measure, ApproximateDivergence):
        stated = (_stated(d_out[0]), _stated(d_out[1]))  # label: stated-pair
    else:
        stated = _stated(d_out)  # label: stated-number
    input_domain, input_metric = odometer.input_domain, odometer.input_metric

    def function(data) -> OdometerQueryable:
        budget = (d_in, d_out)
        return OdometerQueryable(
            data, input_domain, input_metric, measure, budget
        )  # label: function

    def privacy_map(d_in_prime):
        if not d_in_prime <= d_in:  # label: map-check
            raise FailedMapError(
                f"must not exceed the filter's d_in = {shown(d_in)}, got {shown(d_in_prime)}",
                parameter="d_in",
            )
        return stated  # label: map-value

    return Measurement(
        input_domain=input_domain,
        function=function,
        input_metric=input_metric,
        output_measure=measure,
        privacy_map=privacy_map,
    )


# proof: end constructor
