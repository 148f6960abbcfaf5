"""``make_noise``: the noise mechanism named by its output measure, as OpenDP 0.16's.

Guarantee (make_noise.tex): ``make_noise(input_domain, input_metric, output_measure, scale,
k)`` returns ``make_laplace(input_domain, input_metric, scale, k)`` when ``output_measure``
is the max-divergence and ``make_gaussian(input_domain, input_metric, scale, k)`` when it is
the zero-concentrated divergence, each a valid measurement with its own map; any other
measure is refused with :class:`MakeMeasurementError` naming ``output_measure``.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.errors import MakeMeasurementError, shown
from certdp.core.measures import MaxDivergence, ZeroConcentratedDivergence
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements.gaussian import make_gaussian
from certdp.measurements.laplace import make_laplace

__all__ = ["make_noise", "then_noise"]


# proof: begin constructor
@certified
def make_noise(input_domain, input_metric, output_measure, scale, k=None) -> Measurement:
    """Laplace noise for ``max_divergence()``, Gaussian noise for
    ``zero_concentrated_divergence()``."""
    if type(output_measure) is MaxDivergence:  # label: pure
        return make_laplace(input_domain, input_metric, scale, k)  # label: laplace
    if type(output_measure) is ZeroConcentratedDivergence:  # label: zcdp
        return make_gaussian(input_domain, input_metric, scale, k)  # label: gaussian
    raise MakeMeasurementError(  # label: refuse
        "must be MaxDivergence or ZeroConcentratedDivergence (the measures of certdp's noise "
        f"mechanisms), got {shown(output_measure)}",
        parameter="output_measure",
    )


# proof: end constructor


then_noise = partial_constructor(make_noise)
