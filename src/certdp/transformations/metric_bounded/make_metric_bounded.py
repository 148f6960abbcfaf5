"""``make_metric_bounded``: the identity on sized datasets, from a distance that adds and removes
records to one that changes them.

Guarantee (make_metric_bounded.tex): on a ``vector_domain`` of known size ``n``, the identity
from ``symmetric_distance()`` to ``change_one_distance()`` has the map ``d_in -> d_in // 2``
(OpenDP 0.16's), and from ``insert_delete_distance()`` to ``hamming_distance()`` the map
``d_in -> 0`` for ``d_in < 2`` and ``n`` otherwise.  OpenDP 0.16 states ``d_in // 2`` for the
second pair too, which is too small: ``[a, b, c]`` and ``[b, c, a]`` are 2 apart under
insert-delete and 3 apart under Hamming.
"""

from __future__ import annotations

import copy

from certdp.contracts import certified
from certdp.core.change_metrics import ChangeOneDistance, HammingDistance
from certdp.core.domains import VectorDomain
from certdp.core.errors import MakeTransformationError
from certdp.core.metrics import InsertDeleteDistance, SymmetricDistance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation

__all__ = ["make_metric_bounded", "then_metric_bounded"]


# proof: begin constructor
@certified
def make_metric_bounded(input_domain, input_metric) -> Transformation:
    """The identity on a sized ``vector_domain``: symmetric to change-one distance (map
    ``d_in // 2``), or insert-delete to Hamming distance (map ``0`` below 2, else the size)."""
    if type(input_domain) is not VectorDomain or input_domain.size is None:  # label: sized
        raise MakeTransformationError(
            f"must be a vector_domain of known size, got {input_domain}", parameter="input_domain"
        )
    size = input_domain.size  # label: size
    if type(input_metric) is SymmetricDistance:
        output_metric = ChangeOneDistance()  # label: to-change-one

        def stability_map(d_in):
            return d_in // 2  # label: map-change-one

    elif type(input_metric) is InsertDeleteDistance:
        output_metric = HammingDistance()  # label: to-hamming

        def stability_map(d_in):
            return 0 if d_in < 2 else size  # label: map-hamming

    else:
        raise MakeTransformationError(
            f"must be symmetric_distance() or insert_delete_distance(), got {input_metric}",
            parameter="input_metric",
        )  # label: metric-other

    def function(data):
        return copy.copy(data)  # label: function

    return Transformation(
        input_domain=input_domain,
        output_domain=input_domain,  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=output_metric,
        stability_map=stability_map,
    )


# proof: end constructor


then_metric_bounded = partial_constructor(make_metric_bounded)
