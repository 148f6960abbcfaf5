"""``make_cast``: cast every record of a vector to ``TOA``, ``None`` where the value has no
``TOA`` counterpart (and where a float cast gives NaN).

Guarantee: the output is a vector of ``option_domain(atom_domain(T=TOA))`` of the same length,
and ``d_in -> d_in`` is a valid stability map under the symmetric and the insert-delete
distance (1-stable; transformations/_rowmap/rowmap.tex).  Which values convert, and to what:
transformations/_cast/convert.tex.
"""

from __future__ import annotations

import math

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain
from certdp.core.errors import DPError, MakeTransformationError
from certdp.core.option_domain import option_domain
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.core.types import carrier
from certdp.transformations._cast import convert, record_value
from certdp.transformations._rowmap import make_row_by_row, with_text_table

__all__ = ["make_cast", "then_cast"]


# proof: begin constructor
@certified
def make_cast(input_domain, input_metric, TOA) -> Transformation:
    """Cast each record to ``TOA`` as OpenDP 0.16 casts it; ``None`` where a record does not
    convert or a float result is NaN; stability ``d_in -> d_in``."""
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

    def cast(record):
        value = convert(record_value(record), T, TOA)  # label: row
        if value is None or (TOA.is_float and math.isnan(value)):  # label: row-none
            return None
        return value  # label: row-value

    element = atom_domain(T=TOA.name, nan=True if TOA.is_float else None)
    output_element = option_domain(element)  # label: output-element
    rows = make_row_by_row(input_domain, output_element, input_metric, cast)  # label: row-by-row
    if T.name != "String":
        return rows  # label: not-text
    return with_text_table(rows, cast)  # label: tabled-transformation


# proof: end constructor


then_cast = partial_constructor(make_cast)
