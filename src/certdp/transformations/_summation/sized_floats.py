"""The argument checks shared by the constructors over a known number of bounded floats.

Guarantee (sized_floats.tex): :func:`sized_float_domain` returns ``(element_domain, size)``
when ``input_domain`` is ``vector_domain(atom_domain(bounds=(L, U), T=f32|f64), size=n)`` with
``n >= 1`` and ``input_metric`` is ``symmetric_distance()`` or ``insert_delete_distance()``;
otherwise it raises :class:`MakeTransformationError` naming the parameter of the first check
that fails.
"""

from __future__ import annotations

from certdp.core.domains import AtomDomain, Domain, VectorDomain
from certdp.core.errors import MakeTransformationError, shown, type_mismatch
from certdp.core.metrics import InsertDeleteDistance, Metric, SymmetricDistance

__all__ = ["sized_float_domain"]


# proof: begin sized
def sized_float_domain(input_domain, input_metric):
    """``(element_domain, size)`` of a sized vector domain of bounded floats under the
    symmetric or insert-delete distance; a typed error naming the parameter otherwise."""
    if not isinstance(input_domain, VectorDomain) or not isinstance(  # label: domain-check
        input_domain.element_domain, AtomDomain
    ):
        error = (  # OpenDP raises TypeError for what is not a domain at all
            MakeTransformationError
            if isinstance(input_domain, Domain)
            else type_mismatch(MakeTransformationError)
        )
        raise error(
            f"must be vector_domain(atom_domain(bounds=...), size=...), got {shown(input_domain)}",
            parameter="input_domain",
        )
    element_domain = input_domain.element_domain
    if not element_domain.T.is_float:  # label: float-check
        raise MakeTransformationError(
            f"elements must be floats (f32 or f64), not {element_domain.T}",
            parameter="input_domain",
        )
    if element_domain.bounds is None:  # label: bounds-check
        raise MakeTransformationError(
            "must be bounded: build atom_domain(bounds=(lower, upper)) or clamp the data "
            "first with then_clamp(bounds)",
            parameter="input_domain",
        )
    size = input_domain.size
    if size is None:  # label: size-known
        raise MakeTransformationError(
            "the dataset size must be known: give vector_domain(..., size=n) or resize the "
            "data first with then_resize(size, constant)",
            parameter="input_domain",
        )
    if size == 0:  # label: size-positive
        raise MakeTransformationError("the dataset size must be positive", parameter="input_domain")
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
    return element_domain, size  # label: sized


# proof: end sized
