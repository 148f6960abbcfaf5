"""``make_chain_tt``: ``transformation1`` after ``transformation0``, OpenDP's argument order.

Guarantee (make_chain_tt.tex): the result is ``transformation0 >> transformation1``, the chain
of the chaining theorem (core/transformation.tex): valid, with the composed stability map,
whenever both transformations are valid.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.errors import MakeTransformationError, type_mismatch
from certdp.core.transformation import Transformation, _chain

__all__ = ["make_chain_tt"]


# proof: begin constructor
@certified
def make_chain_tt(transformation1, transformation0) -> Transformation:
    """``transformation1(transformation0(x))``, with map ``map1(map0(d_in))``."""
    for value, parameter in ((transformation1, "transformation1"),
                             (transformation0, "transformation0")):  # fmt: skip
        if not isinstance(value, Transformation):  # label: is-transformation
            raise type_mismatch(MakeTransformationError)(
                f"must be a transformation, got {type(value).__name__}", parameter=parameter
            )
    return _chain(transformation0, transformation1)  # label: chain


# proof: end constructor
