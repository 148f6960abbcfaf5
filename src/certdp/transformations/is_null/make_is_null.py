"""``make_is_null``: for every record of a vector of floats or of options, whether it is null:
``None``, or NaN.

Guarantee: the output is a vector of booleans of the same length, and ``d_in -> d_in`` is a
valid stability map under the symmetric and the insert-delete distance (1-stable;
transformations/_rowmap/rowmap.tex).
"""

from __future__ import annotations

import math

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain
from certdp.core.errors import MakeTransformationError
from certdp.core.option_domain import OptionDomain
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.transformations._cast import record_value
from certdp.transformations._rowmap import make_row_by_row

__all__ = ["make_is_null", "then_is_null"]


# proof: begin constructor
@certified
def make_is_null(input_domain, input_metric) -> Transformation:
    """``True`` for each record that is ``None`` or NaN, ``False`` otherwise; stability
    ``d_in -> d_in``.  Elements: a float atom_domain, or an option_domain."""
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    element_domain = input_domain.element_domain
    nullable = type(element_domain) is OptionDomain or (
        type(element_domain) is AtomDomain and element_domain.T.is_float
    )
    if not nullable:  # label: element-nullable
        raise MakeTransformationError(
            f"elements must come from an atom_domain of a float type or an option_domain "
            f"(the domains with a null), got {element_domain}",
            parameter="input_domain",
        )

    def is_null(record):
        value = record_value(record)  # label: row
        return value is None or (type(value) is float and math.isnan(value))  # label: row-null

    output_element = atom_domain(T="bool")  # label: output-element
    return make_row_by_row(input_domain, output_element, input_metric, is_null)  # label: row-by-row


# proof: end constructor


then_is_null = partial_constructor(make_is_null)
