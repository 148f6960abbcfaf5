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
from certdp.core.postprocess import Function, _Tower, postprocess
from certdp.core.transformation import Measurement

__all__ = ["make_chain_pm"]

# proof: begin constructor
#: The most contract-checked postprocessing layers a ``make_chain_pm`` may stack on.
CHECKED_HEIGHT = 10


def _checked_height(measurement) -> int:
    """How many postprocessing layers carrying a runtime contract are stacked at the top of
    ``measurement`` (each is run, and its map checked, by one nested call)."""
    height = 0
    state = measurement.__dict__
    while state.get("postcondition") is not None and type(state.get("_tower")) is _Tower:
        height += 1  # label: height-step
        state = state["_tower"].base.__dict__
    return height


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
    if _checked_height(measurement0) >= CHECKED_HEIGHT:  # label: height
        raise MakeMeasurementError(
            f"a tower of more than {CHECKED_HEIGHT} make_chain_pm layers with runtime contracts "
            "enabled is refused (each checked layer nests one call); build it with `>>` or "
            "with contracts disabled, where a tower is run by one loop",
            parameter="measurement0",
        )
    return postprocess(postprocess1, measurement0)  # label: postprocess


# proof: end constructor
