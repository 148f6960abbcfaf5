"""``make_noise_threshold``: the thresholded release named by its output measure (OpenDP 0.16).

Guarantee (make_noise_threshold.tex): for ``output_measure = Approximate(MaxDivergence)`` it
returns ``make_laplace_threshold(input_domain, input_metric, scale, threshold, k)``, for
``Approximate(ZeroConcentratedDivergence)`` it returns ``make_gaussian_threshold(...)`` with the
same arguments, each a valid measurement with that constructor's map; every other measure is
refused with :class:`MakeMeasurementError` naming ``output_measure``.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.errors import MakeMeasurementError, shown
from certdp.core.measures import ApproximateDivergence, MaxDivergence, ZeroConcentratedDivergence
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements.gaussian_threshold import make_gaussian_threshold
from certdp.measurements.laplace_threshold import make_laplace_threshold

__all__ = ["make_noise_threshold", "then_noise_threshold"]


# proof: begin constructor
@certified
def make_noise_threshold(
    input_domain, input_metric, output_measure, scale, threshold, k=None
) -> Measurement:
    """The thresholded Laplace release for ``approximate(max_divergence())``, the thresholded
    Gaussian release for ``approximate(zero_concentrated_divergence())``."""
    inner = output_measure.measure if type(output_measure) is ApproximateDivergence else None
    if type(inner) is MaxDivergence:  # label: pure
        return make_laplace_threshold(  # label: laplace
            input_domain, input_metric, scale, threshold, k, MO=output_measure
        )
    if type(inner) is ZeroConcentratedDivergence:  # label: zcdp
        return make_gaussian_threshold(  # label: gaussian
            input_domain, input_metric, scale, threshold, k, MO=output_measure
        )
    raise MakeMeasurementError(  # label: refuse
        "must be Approximate(MaxDivergence) or Approximate(ZeroConcentratedDivergence), "
        f"got {shown(output_measure)}",
        parameter="output_measure",
    )


# proof: end constructor


then_noise_threshold = partial_constructor(make_noise_threshold)
