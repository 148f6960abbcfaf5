"""``make_ordered_random``: a uniformly random order of the records (Fisher--Yates, OS CSPRNG).

Guarantee (make_ordered_random.tex): on a ``vector_domain``, the transformation that returns the
records in a uniformly random order is valid (with a coupling of the two output
distributions) from ``symmetric_distance()`` to ``insert_delete_distance()`` and from
``change_one_distance()`` to ``hamming_distance()``, with the map ``d_in -> d_in`` (OpenDP
0.16's) for an integer ``d_in``.
"""

from __future__ import annotations

import numpy as np

from certdp.contracts import certified
from certdp.core.change_metrics import ChangeOneDistance, HammingDistance
from certdp.core.domains import VectorDomain
from certdp.core.errors import FailedMapError, MakeTransformationError
from certdp.core.metrics import InsertDeleteDistance, SymmetricDistance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.samplers.shuffle import shuffled

__all__ = ["make_ordered_random", "then_ordered_random"]


# proof: begin constructor
@certified
def make_ordered_random(input_domain, input_metric) -> Transformation:
    """A uniformly random order of the records of a ``vector_domain``: symmetric to
    insert-delete distance, or change-one to Hamming distance; stability ``d_in -> d_in``."""
    if type(input_domain) is not VectorDomain:  # label: vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    if type(input_metric) is SymmetricDistance:
        output_metric = InsertDeleteDistance()  # label: to-insert-delete
    elif type(input_metric) is ChangeOneDistance:
        output_metric = HammingDistance()  # label: to-hamming
    else:
        raise MakeTransformationError(
            f"must be symmetric_distance() or change_one_distance(), got {input_metric}",
            parameter="input_metric",
        )  # label: metric-other

    def function(data):
        records = data.tolist() if type(data) is np.ndarray else data  # label: records
        return shuffled(records)  # label: shuffle

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


then_ordered_random = partial_constructor(make_ordered_random)
