"""``measure_requested``: how a measurement constructor reads its ``MO`` argument.

Guarantee (measure_argument.tex): ``measure_requested(MO, measure, name)`` is ``True`` exactly
when ``MO`` is the ``str`` ``name`` (OpenDP's type name), a measure of the same class equal to
``measure``, or (for a measure without parameters) that class; for anything else, a NumPy array
included, it is ``False`` and it raises nothing, so the constructor refuses ``MO`` typed.
"""

from __future__ import annotations

from .measures import ApproximateDivergence, Measure

__all__ = ["measure_requested"]


# proof: begin measure-requested
def measure_requested(MO, measure: Measure, name: str) -> bool:
    """Does a constructor's ``MO`` argument request ``measure``: the ``str`` ``name``, a measure
    of the same class equal to it, or (for a measure without parameters) its class?  False,
    never an exception, for any other object."""
    if type(MO) is str:  # label: mo-name
        return MO == name
    if MO is type(measure):  # label: mo-class
        return type(measure) is not ApproximateDivergence
    return type(MO) is type(measure) and measure == MO  # label: mo-measure


# proof: end measure-requested
