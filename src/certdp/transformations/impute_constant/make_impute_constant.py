"""``make_impute_constant``: replace every null record (NaN, or ``None`` in a vector of
options) by a constant.

Guarantee: the output is a null-free vector of the same length and carrier type, and
``d_in -> d_in`` is a valid stability map under the symmetric and the insert-delete distance
(the transformation is 1-stable; transformations/_rowmap/rowmap.tex).
"""

from __future__ import annotations

import math
from itertools import repeat
from operator import is_

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, carrier_constant
from certdp.core.errors import MakeTransformationError, shown
from certdp.core.option_domain import OptionDomain
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.transformations._cast import record_value
from certdp.transformations._rowmap import make_row_by_row

__all__ = ["make_impute_constant", "then_impute_constant"]


# proof: begin constructor
@certified
def make_impute_constant(input_domain, input_metric, constant) -> Transformation:
    """Replace each null record by ``constant`` and keep the others (as Python values, as
    OpenDP returns them).  Elements: an atom_domain of ``f32``/``f64`` (nulls are NaNs) or an
    option_domain of any atom (nulls are ``None`` and, for floats, NaN), as ``make_cast``
    outputs; the output elements are null-free; stability ``d_in -> d_in``."""
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    element_domain = input_domain.element_domain
    if type(element_domain) is OptionDomain:  # label: element-option
        T = element_domain.element_domain.T
    elif isinstance(element_domain, AtomDomain) and element_domain.T.is_float:
        T = element_domain.T  # label: element-float
    else:
        raise MakeTransformationError(  # label: element-is-float-atom
            f"elements must come from an atom_domain of f32 or f64 (the values that can be "
            f"missing are NaNs) or an option_domain (missing values are None), got "
            f"{element_domain}",
            parameter="input_domain",
        )
    converted = carrier_constant(constant, T)  # label: constant-convert
    if converted is None:  # label: constant-type
        raise MakeTransformationError(
            f"{shown(constant)} is not a value of the carrier type {T}", parameter="constant"
        )
    if T.is_float and math.isnan(converted):  # label: constant-nan
        raise MakeTransformationError("must not be NaN: it replaces the NaNs", parameter="constant")
    constant = converted

    def impute(record):
        value = record_value(record)  # label: value
        if value is None or (T.is_float and math.isnan(value)):  # label: row
            return constant
        return value  # label: keep

    rows = make_row_by_row(  # label: row-by-row
        input_domain, atom_domain(T=T.name, nan=False if T.is_float else None), input_metric, impute
    )
    kind = T.python_type  # label: plain-types

    def filled(data):
        """``rows.function`` of one copy of ``data``, in one comprehension when every record
        is ``None`` or of the exact Python type of ``T``'s values."""
        if type(data) is list:
            data = list(data)  # label: filled-copy
        elif type(data) is not tuple:
            return rows.function(data)  # label: filled-other
        nulls = sum(map(is_, data, repeat(None)))
        if sum(map(is_, map(type, data), repeat(kind))) + nulls != len(data):
            return rows.function(data)  # label: filled-mixed
        if T.is_float:
            return [
                constant if record is None or record != record else record for record in data
            ]  # label: filled-float
        return [constant if record is None else record for record in data]  # label: filled

    return Transformation(  # label: filled-transformation
        input_domain=rows.input_domain,
        output_domain=rows.output_domain,
        function=filled,
        input_metric=rows.input_metric,
        output_metric=rows.output_metric,
        stability_map=rows._map,
    )


# proof: end constructor


then_impute_constant = partial_constructor(make_impute_constant)
