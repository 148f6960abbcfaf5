"""``make_cast_inherent``: cast every record of a vector to the float type ``TOA``, NaN (the
float type's own null) where the value has no ``TOA`` counterpart.

Guarantee: the output is a vector of ``atom_domain(T=TOA, nan=True)`` of the same length, and
``d_in -> d_in`` is a valid stability map under the symmetric and the insert-delete distance
(1-stable; transformations/_rowmap/rowmap.tex).  Which values convert, and to what:
transformations/_cast/convert.tex.
"""

from __future__ import annotations

import math

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain
from certdp.core.errors import DPError, MakeTransformationError
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.core.types import carrier
from certdp.transformations._cast import convert, record_value
from certdp.transformations._rowmap import make_row_by_row

__all__ = ["make_cast_inherent", "then_cast_inherent"]


# proof: begin constructor
@certified
def make_cast_inherent(input_domain, input_metric, TOA) -> Transformation:
    """Cast each record to the float type ``TOA`` as OpenDP 0.16 casts it; NaN where a record
    does not convert; stability ``d_in -> d_in``."""
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    element_domain = input_domain.element_domain
    if not isinstance(element_domain, AtomDomain):  # label: element-is-atom
        raise MakeTransformationError(
            f"elements must come from an atom_domain, got {element_domain}",
            parameter="input_domain",
        )
    T = element_domain.T
    try:
        TOA = carrier(TOA)  # label: output-type
    except DPError as error:
        raise MakeTransformationError(str(error), parameter="TOA") from None
    if not TOA.is_float:  # label: output-float
        raise MakeTransformationError(
            f"must be a float type (f32 or f64), whose NaN stands for a failed cast, got {TOA}",
            parameter="TOA",
        )

    def cast(record):
        value = convert(record_value(record), T, TOA)  # label: row
        return math.nan if value is None else value  # label: row-nan

    output_element = atom_domain(T=TOA.name, nan=True)  # label: output-element
    return make_row_by_row(input_domain, output_element, input_metric, cast)  # label: row-by-row


# proof: end constructor


then_cast_inherent = partial_constructor(make_cast_inherent)
