"""The input of a dataset transformation: a vector of atoms under a dataset metric.

Guarantee (arguments.tex): ``dataset_input(input_domain, input_metric)`` returns the element
domain, an ``AtomDomain``, when ``input_domain`` is a ``VectorDomain`` of atoms and
``input_metric`` is the symmetric or insert-delete distance; otherwise it raises
``MakeTransformationError`` naming the parameter at fault, the domain before the metric.
"""

from __future__ import annotations

from certdp.core.domains import AtomDomain, Domain, VectorDomain
from certdp.core.errors import MakeTransformationError, shown, type_mismatch
from certdp.core.metrics import InsertDeleteDistance, Metric, SymmetricDistance

__all__ = ["dataset_input"]


# proof: begin dataset-input
def dataset_input(input_domain, input_metric) -> AtomDomain:
    """The element domain of a ``vector_domain(atom_domain(...))`` under the symmetric or
    insert-delete distance; a ``MakeTransformationError`` naming the parameter otherwise."""
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        error = (  # OpenDP raises TypeError for what is not a domain at all
            MakeTransformationError
            if isinstance(input_domain, Domain)
            else type_mismatch(MakeTransformationError)
        )
        raise error(f"must be a vector_domain, got {shown(input_domain)}", parameter="input_domain")
    element_domain = input_domain.element_domain
    if not isinstance(element_domain, AtomDomain):  # label: element-is-atom
        raise MakeTransformationError(
            f"elements must come from an atom_domain, got {shown(element_domain)}",
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
    return element_domain  # label: element-domain


# proof: end dataset-input
