"""``make_report_noisy_max_gumbel``: OpenDP 0.16 keeps this deprecated name for
``make_noisy_max`` under the max-divergence (exponential noise, despite the name).

Guarantee (make_report_noisy_max_gumbel.tex): for ``optimize`` ``"max"`` (``"min"``) it is
``make_noisy_max(input_domain, input_metric, max_divergence(), scale, negate=False (True))``,
with its map ``R / scale`` rounded up, ``R = d_in`` (monotonic) or ``2 d_in``.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.errors import MakeMeasurementError, shown
from certdp.core.measures import max_divergence
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements.noisy_max.make_noisy_max import make_noisy_max

__all__ = ["make_report_noisy_max_gumbel", "then_report_noisy_max_gumbel"]


# proof: begin constructor
@certified
def make_report_noisy_max_gumbel(input_domain, input_metric, scale, optimize="max") -> Measurement:
    """Release the index of the noisy largest (``optimize="min"``: smallest) score."""
    if type(optimize) is not str or optimize not in ("max", "min"):  # label: optimize-check
        raise MakeMeasurementError(
            f'must be "max" or "min", got {shown(optimize)}', parameter="optimize"
        )
    negate = optimize == "min"  # label: negate
    return make_noisy_max(  # label: noisy-max
        input_domain, input_metric, max_divergence(), scale, negate=negate
    )


# proof: end constructor


then_report_noisy_max_gumbel = partial_constructor(make_report_noisy_max_gumbel)
