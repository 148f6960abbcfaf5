"""``make_metric_unbounded``: the identity on sized datasets, from a distance that changes
records to one that adds and removes them.

Guarantee (make_metric_unbounded.tex): on a ``vector_domain`` of known size, the identity from
``change_one_distance()`` to ``symmetric_distance()`` and from ``hamming_distance()`` to
``insert_delete_distance()`` has the map ``d_in -> 2 * d_in``, exactly (a Python ``int``: it
never wraps; OpenDP 0.16 computes it in ``u32`` and returns ``0`` for ``d_in = 2**31``).
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

__all__ = ["make_metric_unbounded", "then_metric_unbounded"]


# proof: begin constructor
@certified
def make_metric_unbounded(input_domain, input_metric) -> Transformation:
    """The identity on a sized ``vector_domain``: change-one to symmetric distance, or Hamming to
    insert-delete distance; stability ``d_in -> 2 * d_in`` for an integer ``d_in``."""
    if type(input_domain) is not VectorDomain or input_domain.size is None:  # label: sized
        raise MakeTransformationError(
            f"must be a vector_domain of known size, got {input_domain}", parameter="input_domain"
        )
    if type(input_metric) is ChangeOneDistance:
        output_metric = SymmetricDistance()  # label: to-symmetric
    elif type(input_metric) is HammingDistance:
        output_metric = InsertDeleteDistance()  # label: to-insert-delete
    else:
        raise MakeTransformationError(
            f"must be change_one_distance() or hamming_distance(), got {input_metric}",
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
        return 2 * d_in  # label: map-double

    return Transformation(
        input_domain=input_domain,
        output_domain=input_domain,  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=output_metric,
        stability_map=stability_map,
    )


# proof: end constructor


then_metric_unbounded = partial_constructor(make_metric_unbounded)
