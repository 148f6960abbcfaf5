"""``make_index``: replace every record ``i`` (a ``usize``) by ``categories[i]``, or by ``null``
when ``i`` is past the end.

Guarantee: the output is a vector of ``atom_domain(T=TOA)`` (NaN admitted for a float type) of
the same length, and ``d_in -> d_in`` is a valid stability map under the symmetric and the
insert-delete distance (1-stable; transformations/_rowmap/rowmap.tex).
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.admission import sequence_parameter
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, carrier_constant
from certdp.core.errors import DPError, MakeTransformationError, shown
from certdp.core.exact_type import type_is
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.core.types import carrier, infer_type
from certdp.transformations._cast import record_value
from certdp.transformations._rowmap import make_row_by_row

__all__ = ["make_index", "then_index"]


# proof: begin constructor
@certified
def make_index(input_domain, input_metric, categories, null, TOA=None) -> Transformation:
    """``categories[i]`` for each record ``i``, ``null`` for ``i >= len(categories)``;
    stability ``d_in -> d_in``.  ``TOA`` defaults to the type of the first category."""
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    element_domain = input_domain.element_domain
    if type(element_domain) is not AtomDomain or element_domain.T.name != "usize":
        raise MakeTransformationError(  # label: element-usize
            f"elements must come from atom_domain(T='usize'), got {element_domain}",
            parameter="input_domain",
        )
    categories = sequence_parameter(categories)  # label: categories-array
    if not type_is(categories, list, tuple):  # label: categories-sequence
        raise MakeTransformationError(
            f"must be a list or tuple, got {type(categories).__name__}", parameter="categories"
        )
    try:
        if TOA is None and not categories:
            raise MakeTransformationError("must be given when categories is empty", parameter="TOA")
        TOA = infer_type(categories[0]) if TOA is None else carrier(TOA)  # label: output-type
    except DPError as error:
        raise MakeTransformationError(str(error).partition(": ")[2], parameter="TOA") from None
    values = []
    for index, category in enumerate(categories):
        value = carrier_constant(category, TOA)  # label: categories-values
        if value is None:
            raise MakeTransformationError(
                f"category {index} ({shown(category)}) is not a value of {TOA}",
                parameter="categories",
            )
        values.append(value)
    table = tuple(values)  # label: table
    default = carrier_constant(null, TOA)  # label: null-value
    if default is None:
        raise MakeTransformationError(f"{shown(null)} is not a value of {TOA}", parameter="null")

    def index(record):
        position = record_value(record)  # label: row
        return table[position] if position < len(table) else default  # label: row-lookup

    output_element = atom_domain(T=TOA.name, nan=True if TOA.is_float else None)
    return make_row_by_row(input_domain, output_element, input_metric, index)  # label: row-by-row


# proof: end constructor


then_index = partial_constructor(make_index)
