"""``make_chain_mt``: ``measurement1`` after ``transformation0``, OpenDP's argument order.

Guarantee (make_chain_mt.tex): the result is ``transformation0 >> measurement1``, the chain of
the chaining theorem (core/transformation.tex): a valid measurement with the privacy map
``map1(map0(d_in))`` whenever both parts are valid.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.errors import MakeMeasurementError, type_mismatch
from certdp.core.transformation import Measurement, Transformation, _chain

__all__ = ["make_chain_mt"]


# proof: begin constructor
@certified
def make_chain_mt(measurement1, transformation0) -> Measurement:
    """``measurement1(transformation0(x))``, with map ``map1(map0(d_in))``."""
    if not isinstance(measurement1, Measurement):  # label: is-measurement
        raise type_mismatch(MakeMeasurementError)(
            f"must be a measurement, got {type(measurement1).__name__}",
            parameter="measurement1",
        )
    if not isinstance(transformation0, Transformation):  # label: is-transformation
        raise type_mismatch(MakeMeasurementError)(
            f"must be a transformation, got {type(transformation0).__name__}",
            parameter="transformation0",
        )
    return _chain(transformation0, measurement1)  # label: chain


# proof: end constructor
