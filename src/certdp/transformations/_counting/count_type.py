"""The output type and the stability map shared by the counts of a dataset.

Guarantee (count_type.tex): :func:`count_type` returns the numeric carrier type ``TO`` names
and raises :class:`MakeTransformationError` naming ``TO`` otherwise. :func:`count_map` is the
map ``d_in -> d_in`` cast into ``TO``: rounded up for a float type, checked for an integer type
(:class:`ArithmeticOverflowError` above its maximum, never wrapped or saturated).
"""

from __future__ import annotations

from certdp.core.errors import ArithmeticOverflowError, DPError, MakeTransformationError, shown
from certdp.core.types import carrier
from certdp.numeric import inf_cast

__all__ = ["count_map", "count_type"]


# proof: begin count-type
def count_type(TO):
    """The numeric carrier type ``TO`` names; a typed error naming ``TO`` otherwise."""
    try:
        TO = carrier(TO)  # label: output-type
    except DPError as error:
        prefix = f"{error.parameter}: " if error.parameter else ""  # label: output-type-reason
        reason = error.message.removeprefix(prefix)  # carrier's own parameter name dropped
        raise MakeTransformationError(reason, parameter="TO") from None
    if not TO.is_numeric:  # label: output-type-numeric
        raise MakeTransformationError(f"must be a numeric type, not {TO}", parameter="TO")
    return TO


def count_map(TO):
    """The stability map ``d_in -> d_in`` of a count, as a distance of ``TO``."""

    def stability_map(d_in):
        if TO.is_float:
            try:
                return inf_cast(d_in, TO.name)  # label: map-float
            except ArithmeticOverflowError:  # label: map-float-overflow
                raise ArithmeticOverflowError(
                    f"{shown(d_in)} exceeds the finite range of {TO}, the type of the output "
                    "distance",
                    parameter="d_in",
                ) from None
        if d_in > TO.max:  # label: map-int-checked
            raise ArithmeticOverflowError(
                f"{shown(d_in)} is not a value of {TO}, the type of the output distance",
                parameter="d_in",
            )
        return d_in  # label: map-int

    return stability_map


# proof: end count-type
