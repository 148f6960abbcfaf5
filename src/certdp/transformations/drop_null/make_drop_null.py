"""``make_drop_null``: the records of a vector of floats or of options that are not null
(neither ``None`` nor NaN), in their order.

Guarantee (make_drop_null.tex): the output is a vector of non-null values of the element type,
of unknown length, and ``d_in -> d_in`` is a valid stability map under the symmetric and the
insert-delete distance: dropping every record of some kinds does not move two datasets apart.
"""

from __future__ import annotations

import math

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, vector_domain
from certdp.core.errors import MakeTransformationError
from certdp.core.metrics import InsertDeleteDistance, SymmetricDistance
from certdp.core.option_domain import OptionDomain
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.transformations._cast import record_value

__all__ = ["make_drop_null", "then_drop_null"]


# proof: begin constructor
@certified
def make_drop_null(input_domain, input_metric) -> Transformation:
    """Keep the records that are neither ``None`` nor NaN, in order; stability
    ``d_in -> d_in``.  Elements: a float atom_domain, or an option_domain."""
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    element_domain = input_domain.element_domain
    if type(element_domain) is OptionDomain:  # label: element-option
        T = element_domain.element_domain.T
    elif type(element_domain) is AtomDomain and element_domain.T.is_float:
        T = element_domain.T  # label: element-float
    else:
        raise MakeTransformationError(  # label: element-nullable
            f"elements must come from an atom_domain of a float type or an option_domain "
            f"(the domains with a null), got {element_domain}",
            parameter="input_domain",
        )
    if not isinstance(input_metric, (SymmetricDistance, InsertDeleteDistance)):
        raise MakeTransformationError(  # label: metric-check
            f"must be symmetric_distance() or insert_delete_distance(), got {input_metric}",
            parameter="input_metric",
        )

    def function(data):
        values = (record_value(record) for record in data)  # label: values
        return [value for value in values if not _null(value)]  # label: keep

    def stability_map(d_in):
        return d_in  # label: stability-map

    return Transformation(
        input_domain=input_domain,
        output_domain=vector_domain(  # label: output-domain
            atom_domain(T=T.name, nan=False if T.is_float else None)
        ),
        function=function,
        input_metric=input_metric,
        output_metric=input_metric,  # label: output-metric
        stability_map=stability_map,
    )


def _null(value) -> bool:
    """Is the exact value ``None`` or a NaN?"""
    return value is None or (type(value) is float and math.isnan(value))  # label: null


# proof: end constructor


then_drop_null = partial_constructor(make_drop_null)
