"""``make_identity``: the transformation that returns (a copy of) its admitted input.

Guarantee (make_identity.tex): on a metric space that certdp knows (vectors under the symmetric,
insert-delete, change-one or Hamming distance; an atom under the discrete distance; a numeric
atom under the absolute distance; vectors of numeric atoms under the L1, L2 or L-infinity
distance of their type) the identity is valid with the map ``d_in -> d_in``.
OpenDP 0.16 accepts any pair behind its ``honest-but-curious`` feature; certdp checks the pair
instead, and needs no feature.
"""

from __future__ import annotations

import copy

from certdp.contracts import certified
from certdp.core.change_metrics import ChangeOneDistance, DiscreteDistance, HammingDistance
from certdp.core.domains import AtomDomain, VectorDomain
from certdp.core.errors import MakeTransformationError
from certdp.core.exact_type import type_is
from certdp.core.metrics import (
    AbsoluteDistance,
    InsertDeleteDistance,
    L1Distance,
    L2Distance,
    SymmetricDistance,
)
from certdp.core.partial import partial_constructor
from certdp.core.partition_metrics import LInfDistance
from certdp.core.transformation import Transformation

__all__ = ["make_identity", "then_identity"]


# proof: begin constructor
def _metric_space(domain, metric) -> bool:
    """Does ``metric`` measure the members of ``domain``?"""
    if type_is(metric, SymmetricDistance, InsertDeleteDistance):
        return type(domain) is VectorDomain  # label: space-dataset
    if type_is(metric, ChangeOneDistance, HammingDistance):
        return type(domain) is VectorDomain  # label: space-change
    if type(metric) is DiscreteDistance:
        return type(domain) is AtomDomain  # label: space-discrete
    if type(metric) is AbsoluteDistance:
        return type(domain) is AtomDomain and domain.T == metric.T  # label: space-absolute
    if type_is(metric, L1Distance, L2Distance, LInfDistance):
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
            f"(vector_domain with symmetric_distance, insert_delete_distance, "
            f"change_one_distance or hamming_distance, atom_domain with discrete_distance, a "
            f"numeric atom_domain with absolute_distance of its type, or a vector of numeric "
            f"atoms with l1_distance, l2_distance or linf_distance of their type)",
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
