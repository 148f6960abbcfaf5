"""``make_cast_default``: cast every record of a vector to ``TOA``, the default of ``TOA``
(``0``, ``0.0``, ``False`` or ``""``) where the value has no ``TOA`` counterpart.

Guarantee: the output is a vector of ``TOA`` of the same length, and ``d_in -> d_in`` is a valid
stability map under the symmetric and the insert-delete distance (the transformation is
1-stable; transformations/_rowmap/rowmap.tex).  Which values convert, and to what:
transformations/_cast/convert.tex.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain
from certdp.core.errors import DPError, MakeTransformationError
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.core.types import carrier
from certdp.transformations._cast import convert, record_value
from certdp.transformations._rowmap import make_row_by_row, with_text_table

__all__ = ["make_cast_default", "then_cast_default"]

# proof: begin constructor
#: The default of each kind of type: what a value that does not convert becomes.
_DEFAULTS = {"bool": False, "String": ""}


@certified
def make_cast_default(input_domain, input_metric, TOA) -> Transformation:
    """Cast each record to ``TOA`` (numbers, bool and String, as OpenDP 0.16 casts them); the
    default of ``TOA`` where a record does not convert; stability ``d_in -> d_in``."""
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
    default = _DEFAULTS.get(TOA.name, 0.0 if TOA.is_float else 0)  # label: default

    def cast(record):
        value = convert(record_value(record), T, TOA)  # label: row
        return default if value is None else value  # label: row-default

    output_element = atom_domain(T=TOA.name, nan=True if TOA.is_float else None)
    rows = make_row_by_row(input_domain, output_element, input_metric, cast)  # label: row-by-row
    if T.name != "String":
        return rows  # label: not-text
    return with_text_table(rows, cast)  # label: tabled-transformation


# proof: end constructor


then_cast_default = partial_constructor(make_cast_default)
