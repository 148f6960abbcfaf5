"""``make_find``: for every record, its position among distinct ``categories``, or ``None``
when it is none of them.

Guarantee: the output is a vector of ``option_domain(atom_domain(T="usize"))`` of the same
length, and ``d_in -> d_in`` is a valid stability map under the symmetric and the insert-delete
distance (1-stable; transformations/_rowmap/rowmap.tex).  Repeated categories are refused.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.admission import sequence_parameter
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, carrier_constant
from certdp.core.errors import MakeTransformationError, shown
from certdp.core.exact_type import type_is
from certdp.core.option_domain import option_domain
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.transformations._cast import record_value
from certdp.transformations._rowmap import make_row_by_row

__all__ = ["make_find", "then_find"]


# proof: begin constructor
@certified
def make_find(input_domain, input_metric, categories) -> Transformation:
    """The index of each record in ``categories``, ``None`` where it is not one; stability
    ``d_in -> d_in``.  Elements: integers, ``bool`` or ``String`` (not floats, as OpenDP)."""
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    element_domain = input_domain.element_domain
    if type(element_domain) is not AtomDomain or element_domain.T.is_float:
        raise MakeTransformationError(  # label: element-hashable
            f"elements must come from an atom_domain of an integer type, bool or String (floats "
            f"have no equality OpenDP hashes), got {element_domain}",
            parameter="input_domain",
        )
    T = element_domain.T
    categories = sequence_parameter(categories)  # label: categories-array
    if not type_is(categories, list, tuple):  # label: categories-sequence
        raise MakeTransformationError(
            f"must be a list or tuple, got {type(categories).__name__}", parameter="categories"
        )
    positions = {}
    for index, category in enumerate(categories):
        value = carrier_constant(category, T)  # label: categories-values
        if value is None:
            raise MakeTransformationError(
                f"category {index} ({shown(category)}) is not a value of {T}",
                parameter="categories",
            )
        if value in positions:  # label: categories-unique
            raise MakeTransformationError(
                f"categories must be unique: {shown(value)} is repeated", parameter="categories"
            )
        positions[value] = index  # label: categories-index

    def find(record):
        return positions.get(record_value(record))  # label: row

    output_element = option_domain(atom_domain(T="usize"))  # label: output-element
    return make_row_by_row(input_domain, output_element, input_metric, find)  # label: row-by-row


# proof: end constructor


then_find = partial_constructor(make_find)
