"""``make_fully_adaptive_composition``: an odometer over one input space and output measure.

Guarantee (make_fully_adaptive_composition.tex): for a domain, a metric and one of the measures
MaxDivergence, ZeroConcentratedDivergence, Approximate(MaxDivergence),
Approximate(ZeroConcentratedDivergence) or RenyiDivergence, the returned :class:`Odometer` gives,
for each dataset in the domain, a fresh :class:`OdometerQueryable` that answers any measurement
on that space and measure, each charged before it runs, and whose ``privacy_loss(d_in)`` is at
least the exact sum of the answered measurements' maps at ``d_in`` (odometer.tex; under
RenyiDivergence a curve at least that sum at every order it answers).  Its privacy meaning is
given by a filter (make_privacy_filter.tex; under RenyiDivergence the Rényi filter at each
fixed order, make_fully_adaptive_composition.tex).
"""

from __future__ import annotations

from certdp.combinators._compose import composable
from certdp.combinators._odometer.odometer import Odometer
from certdp.contracts import certified
from certdp.core.domains import Domain
from certdp.core.errors import MakeMeasurementError
from certdp.core.metrics import Metric
from certdp.core.partial import partial_constructor
from certdp.core.renyi_divergence import RenyiDivergence

__all__ = ["make_fully_adaptive_composition", "then_fully_adaptive_composition"]


# proof: begin constructor
@certified
def make_fully_adaptive_composition(input_domain, input_metric, output_measure) -> Odometer:
    """An odometer: invoked with data, a queryable answering measurements on it without limit,
    reporting the loss spent so far."""
    if not isinstance(input_domain, Domain):  # label: domain
        raise MakeMeasurementError("must be a domain", parameter="input_domain")
    if not isinstance(input_metric, Metric):  # label: metric
        raise MakeMeasurementError("must be a metric", parameter="input_metric")
    renyi = type(output_measure) is RenyiDivergence  # label: renyi
    if not renyi and not composable(output_measure):  # label: measure
        raise MakeMeasurementError(
            "must be MaxDivergence, ZeroConcentratedDivergence, Approximate of either, or "
            f"RenyiDivergence, got {output_measure!r}",
            parameter="output_measure",
        )
    odometer = Odometer(input_domain, input_metric, output_measure)  # label: odometer
    odometer._fully_adaptive = True  # label: mark
    return odometer


# proof: end constructor

then_fully_adaptive_composition = partial_constructor(make_fully_adaptive_composition)
