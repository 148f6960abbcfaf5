"""``make_noise_threshold``: the thresholded release named by its output measure (OpenDP 0.16).

Guarantee (make_noise_threshold.tex): for ``output_measure = Approximate(MaxDivergence)`` it
returns ``make_laplace_threshold(input_domain, input_metric, scale, threshold, k)``, a valid
measurement with that constructor's map; ``Approximate(ZeroConcentratedDivergence)`` (OpenDP's
thresholded Gaussian) is refused with :class:`MakeMeasurementError` naming ``output_measure``
(certdp has no thresholded Gaussian release yet), and so is every other measure.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.errors import MakeMeasurementError, shown
from certdp.core.measures import ApproximateDivergence, MaxDivergence, ZeroConcentratedDivergence
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements.laplace_threshold import make_laplace_threshold

__all__ = ["make_noise_threshold", "then_noise_threshold"]


# proof: begin constructor
@certified
def make_noise_threshold(
    input_domain, input_metric, output_measure, scale, threshold, k=None
) -> Measurement:
    """The thresholded Laplace release for ``approximate(max_divergence())``."""
    inner = output_measure.measure if type(output_measure) is ApproximateDivergence else None
    if type(inner) is MaxDivergence:  # label: pure
        return make_laplace_threshold(  # label: laplace
            input_domain, input_metric, scale, threshold, k, MO=output_measure
        )
    if type(inner) is ZeroConcentratedDivergence:  # label: zcdp
        raise MakeMeasurementError(
            "Approximate(ZeroConcentratedDivergence) needs a thresholded Gaussian release, "
            "which certdp does not have yet",
            parameter="output_measure",
        )
    raise MakeMeasurementError(  # label: refuse
        f"must be Approximate(MaxDivergence), got {shown(output_measure)}",
        parameter="output_measure",
    )


# proof: end constructor


then_noise_threshold = partial_constructor(make_noise_threshold)
