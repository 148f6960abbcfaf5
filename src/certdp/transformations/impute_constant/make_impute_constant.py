"""``make_impute_constant``: replace every NaN record of a float vector by a constant.

Guarantee: the output is a NaN-free vector of the same length and carrier type, and
``d_in -> d_in`` is a valid stability map under the symmetric and the insert-delete distance
(the transformation is 1-stable; transformations/_rowmap/rowmap.tex).
"""

from __future__ import annotations

import math

import numpy as np

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, carrier_constant
from certdp.core.errors import MakeTransformationError
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.transformations._rowmap import make_row_by_row

__all__ = ["make_impute_constant", "then_impute_constant"]


# proof: begin constructor
@certified
def make_impute_constant(input_domain, input_metric, constant) -> Transformation:
    """Replace each NaN record of a vector of ``f32``/``f64`` by ``constant``, keep the others
    (as Python floats, as OpenDP returns them); the output elements are NaN-free; stability
    ``d_in -> d_in``."""
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    element_domain = input_domain.element_domain
    if not isinstance(element_domain, AtomDomain) or not element_domain.T.is_float:
        raise MakeTransformationError(  # label: element-is-float-atom
            f"elements must come from an atom_domain of f32 or f64 (the values that can be "
            f"missing are NaNs), got {element_domain}",
            parameter="input_domain",
        )
    T = element_domain.T
    converted = carrier_constant(constant, T)  # label: constant-convert
    if converted is None:  # label: constant-type
        raise MakeTransformationError(
            f"{constant!r} is not a value of the carrier type {T}", parameter="constant"
        )
    if math.isnan(converted):  # label: constant-nan
        raise MakeTransformationError("must not be NaN: it replaces the NaNs", parameter="constant")
    constant = converted

    def impute(record):
        if math.isnan(record):  # label: row
            return constant
        return record.item() if isinstance(record, np.generic) else record  # label: keep

    return make_row_by_row(  # label: row-by-row
        input_domain, atom_domain(T=T.name, nan=False), input_metric, impute
    )


# proof: end constructor


then_impute_constant = partial_constructor(make_impute_constant)
