"""A transformation that applies one function to every record of a vector.

Guarantee (rowmap.tex): when ``row`` is total on the elements of ``input_domain``, depends only on
the record it is given and returns members of ``output_element_domain``, the transformation built
by ``make_row_by_row`` is valid under the symmetric and the insert-delete distance with the map
``d_in -> d_in`` (it is 1-stable), and it keeps the length of the data.
"""

from __future__ import annotations

from certdp.core.domains import VectorDomain, vector_domain
from certdp.core.errors import MakeTransformationError
from certdp.core.metrics import InsertDeleteDistance, SymmetricDistance
from certdp.core.transformation import Transformation

__all__ = ["make_row_by_row"]


# proof: begin row-by-row
def make_row_by_row(input_domain, output_element_domain, input_metric, row) -> Transformation:
    """The transformation ``[row(r) for r in data]`` from ``input_domain`` to vectors of
    ``output_element_domain`` of the same size, under ``input_metric`` on both sides."""
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    if not isinstance(input_metric, (SymmetricDistance, InsertDeleteDistance)):
        raise MakeTransformationError(  # label: metric-check
            f"must be symmetric_distance() or insert_delete_distance(), got {input_metric}",
            parameter="input_metric",
        )

    def function(data):
        return [row(record) for record in data]  # label: function

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


# proof: end row-by-row
