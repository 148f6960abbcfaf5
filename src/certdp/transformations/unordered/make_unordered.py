"""``make_unordered``: the identity on datasets, forgetting their order.

Guarantee (make_unordered.tex): on a ``vector_domain``, the identity from
``insert_delete_distance()`` to ``symmetric_distance()`` and from ``hamming_distance()`` to
``change_one_distance()`` has the map ``d_in -> d_in`` (OpenDP 0.16's).
"""

from __future__ import annotations

import copy

from certdp.contracts import certified
from certdp.core.change_metrics import ChangeOneDistance, HammingDistance
from certdp.core.domains import VectorDomain
from certdp.core.errors import FailedMapError, MakeTransformationError
from certdp.core.metrics import InsertDeleteDistance, SymmetricDistance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation

__all__ = ["make_unordered", "then_unordered"]


# proof: begin constructor
@certified
def make_unordered(input_domain, input_metric) -> Transformation:
    """The identity on a ``vector_domain``: insert-delete to symmetric distance, or Hamming to
    change-one distance; stability ``d_in -> d_in``."""
    if type(input_domain) is not VectorDomain:  # label: vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    if type(input_metric) is InsertDeleteDistance:
        output_metric = SymmetricDistance()  # label: to-symmetric
    elif type(input_metric) is HammingDistance:
        output_metric = ChangeOneDistance()  # label: to-change-one
    else:
        raise MakeTransformationError(
            f"must be insert_delete_distance() or hamming_distance(), got {input_metric}",
            parameter="input_metric",
        )  # label: metric-other

    def function(data):
        return copy.copy(data)  # label: function

    def stability_map(d_in):
        if type(d_in) is not int:  # label: map-integer
            raise FailedMapError(
                f"must be a non-negative integer under {input_metric}, got {d_in!r}",
                parameter="d_in",
            )
        return d_in  # label: map

    return Transformation(
        input_domain=input_domain,
        output_domain=input_domain,  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=output_metric,
        stability_map=stability_map,
    )


# proof: end constructor


then_unordered = partial_constructor(make_unordered)
