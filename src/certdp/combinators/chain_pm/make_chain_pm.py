"""``make_chain_pm``: a postprocessing function applied to a measurement's release.

Guarantee (make_chain_pm.tex): for a :class:`~certdp.core.postprocess.Function` (built by
``dp.new_function`` under ``honest-but-curious``) and a measurement, the result is
``postprocess(postprocess1, measurement0)`` of ``certdp.core.postprocess`` (what ``m >> f``
builds): it releases ``postprocess1(measurement0(x))`` with the measurement's own input domain,
metric, measure and privacy map, which stays valid.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.errors import MakeMeasurementError, type_mismatch
from certdp.core.postprocess import Function, postprocess
from certdp.core.transformation import Measurement

__all__ = ["make_chain_pm"]


# proof: begin constructor
@certified
def make_chain_pm(postprocess1, measurement0) -> Measurement:
    """``postprocess1(measurement0(x))``, with ``measurement0``'s map."""
    if not isinstance(postprocess1, Function):  # label: is-function
        raise type_mismatch(MakeMeasurementError)(
            f"must be a Function (dp.new_function), got {type(postprocess1).__name__}",
            parameter="postprocess1",
        )
    if not isinstance(measurement0, Measurement):  # label: is-measurement
        raise type_mismatch(MakeMeasurementError)(
            f"must be a measurement, got {type(measurement0).__name__}",
            parameter="measurement0",
        )
    return postprocess(postprocess1, measurement0)  # label: postprocess


# proof: end constructor
