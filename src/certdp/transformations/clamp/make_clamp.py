"""``make_clamp``: replace each record below ``lower`` by ``lower`` and above ``upper`` by
``upper``.

Guarantee: the output is a vector of the same length whose records lie in ``bounds``, and
``d_in -> d_in`` is a valid stability map under the symmetric and the insert-delete
distance (the transformation is 1-stable).
"""

from __future__ import annotations

import numpy as np

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, Domain, VectorDomain, atom_domain, vector_domain
from certdp.core.errors import MakeTransformationError, shown, type_mismatch
from certdp.core.metrics import InsertDeleteDistance, Metric, SymmetricDistance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation

__all__ = ["make_clamp", "then_clamp"]


# proof: begin constructor
@certified
def make_clamp(input_domain, input_metric, bounds) -> Transformation:
    """Clamp every record of a vector to ``bounds = (lower, upper)``; stability ``d_in -> d_in``.

    The elements must be numeric and, for floats, NaN-free (``atom_domain(T=..., nan=False)``).
    """
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        error = (  # OpenDP raises TypeError for what is not a domain at all
            MakeTransformationError
            if isinstance(input_domain, Domain)
            else type_mismatch(MakeTransformationError)
        )
        raise error(f"must be a vector_domain, got {shown(input_domain)}", parameter="input_domain")
    element_domain = input_domain.element_domain
    if not isinstance(element_domain, AtomDomain) or not element_domain.T.is_numeric:
        raise MakeTransformationError(  # label: element-is-numeric-atom
            f"elements must come from a numeric atom_domain, got {shown(element_domain)}",
            parameter="input_domain",
        )
    if element_domain.nan:  # label: nan-free
        raise MakeTransformationError(
            f"elements may be NaN, which has no place in an interval: use "
            f"atom_domain(T={shown(element_domain.T.name)}, nan=False)",
            parameter="input_domain",
        )
    if not isinstance(input_metric, (SymmetricDistance, InsertDeleteDistance)):
        error = (
            MakeTransformationError
            if isinstance(input_metric, Metric)
            else type_mismatch(MakeTransformationError)
        )
        raise error(  # label: metric-check
            f"must be symmetric_distance() or insert_delete_distance(), got {shown(input_metric)}",
            parameter="input_metric",
        )
    output_element_domain = atom_domain(bounds=bounds, T=element_domain.T)  # label: bounds-check
    lower, upper = output_element_domain.bounds
    T = element_domain.T

    def function(data):
        return _clamped(data, lower, upper, T)  # label: function

    def stability_map(d_in):
        return d_in  # label: stability-map

    return Transformation(
        input_domain=input_domain,
        output_domain=vector_domain(  # label: output-domain
            output_element_domain, size=input_domain.size
        ),
        function=function,
        input_metric=input_metric,
        output_metric=input_metric,  # label: output-metric
        stability_map=stability_map,
    )


# proof: end constructor


# proof: begin clamp-records
def _clamped(data, lower, upper, T):
    """``data`` with every record ``r`` replaced by ``lower`` if ``r < lower``, by ``upper`` if
    ``r > upper``, and kept otherwise; comparisons are exact, on the values of type ``T``."""
    if T.bits > 64:
        return [_clamped_record(record, lower, upper) for record in data]  # label: wide-records
    # Members of T convert exactly to T's numpy dtype (NumPy scalars of another width included),
    # so the comparisons below are between exact values of T.
    values = np.asarray(data, dtype=T.numpy_dtype)  # label: exact-array
    below, above = values < lower, values > upper  # label: compare
    clamped = np.where(below, lower, np.where(above, upper, values))  # label: select
    clamped = clamped.astype(T.numpy_dtype, copy=False)  # label: clamp-array
    return clamped if isinstance(data, np.ndarray) else clamped.tolist()  # label: output-type


def _clamped_record(record, lower, upper):
    value = record.item() if isinstance(record, np.generic) else record
    return lower if value < lower else upper if value > upper else value  # label: clamp-record


# proof: end clamp-records


then_clamp = partial_constructor(make_clamp)
