"""``make_identity``: the transformation that returns (a copy of) its admitted input.

Guarantee (make_identity.tex): on a metric space that certdp knows (vectors under the symmetric
or insert-delete distance; a numeric atom under the absolute distance; vectors of numeric atoms
under the L1 or L2 distance of their type) the identity is valid with the map ``d_in -> d_in``.
OpenDP 0.16 accepts any pair behind its ``honest-but-curious`` feature; certdp checks the pair
instead, and needs no feature.
"""

from __future__ import annotations

import copy

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, VectorDomain
from certdp.core.errors import MakeTransformationError
from certdp.core.metrics import (
    AbsoluteDistance,
    InsertDeleteDistance,
    L1Distance,
    L2Distance,
    SymmetricDistance,
)
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation

__all__ = ["make_identity", "then_identity"]


# proof: begin constructor
def _metric_space(domain, metric) -> bool:
    """Does ``metric`` measure the members of ``domain``?"""
    if type(metric) in (SymmetricDistance, InsertDeleteDistance):
        return type(domain) is VectorDomain  # label: space-dataset
    if type(metric) is AbsoluteDistance:
        return type(domain) is AtomDomain and domain.T == metric.T  # label: space-absolute
    if type(metric) in (L1Distance, L2Distance):
        if type(domain) is not VectorDomain:
            return False
        element = domain.element_domain
        return type(element) is AtomDomain and element.T == metric.T  # label: space-lp
    return False  # label: space-other


@certified
def make_identity(domain, metric) -> Transformation:
    """The identity on ``domain`` under ``metric``: returns a copy of the admitted input;
    stability ``d_in -> d_in``."""
    if not _metric_space(domain, metric):  # label: space-check
        raise MakeTransformationError(
            f"must measure the members of the domain: {metric} is not a metric on {domain} "
            f"(vector_domain with symmetric_distance or insert_delete_distance, a numeric "
            f"atom_domain with absolute_distance of its type, or a vector of numeric atoms "
            f"with l1_distance or l2_distance of their type)",
            parameter="metric",
        )

    def function(data):
        return copy.copy(data)  # label: function

    def stability_map(d_in):
        return d_in  # label: stability-map

    return Transformation(
        input_domain=domain,
        output_domain=domain,  # label: output-domain
        function=function,
        input_metric=metric,
        output_metric=metric,  # label: output-metric
        stability_map=stability_map,
    )


# proof: end constructor


then_identity = partial_constructor(make_identity)
