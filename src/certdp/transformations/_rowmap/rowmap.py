"""A transformation that applies one function to every record of a vector.

Guarantee (rowmap.tex): when ``row`` is total on the elements of ``input_domain``, depends only on
the record it is given and returns members of ``output_element_domain``, the transformation built
by ``make_row_by_row`` is valid under the symmetric and the insert-delete distance with the map
``d_in -> d_in`` (it is 1-stable), and it keeps the length of the data.
"""

from __future__ import annotations

from itertools import repeat
from operator import is_

from certdp.core.domains import VectorDomain, vector_domain
from certdp.core.errors import MakeTransformationError
from certdp.core.metrics import InsertDeleteDistance, SymmetricDistance
from certdp.core.transformation import Transformation

__all__ = ["make_row_by_row", "with_text_table"]


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


# proof: begin text-table
def with_text_table(rows, row) -> Transformation:
    """``rows`` (built by ``make_row_by_row`` with the row function ``row``) with a function that
    gives an equal list on one copy of its argument (equal element by element, shared objects
    for equal texts; never a shared NaN), running ``row`` once per distinct exact ``str`` when
    every element is one."""

    def tabled(data):
        """``rows.function`` of one copy of ``data``, with ``row`` run once per distinct text."""
        if type(data) is list:
            data = list(data)  # label: tabled-copy
        elif type(data) is not tuple:
            return rows.function(data)  # label: tabled-other
        if not all(map(is_, map(type, data), repeat(str))):
            return rows.function(data)  # label: tabled-mixed
        table = {text: row(text) for text in set(data)}  # label: table
        if any(type(image) is float and image != image for image in table.values()):
            return rows.function(data)  # label: tabled-nan
        return list(map(table.__getitem__, data))  # label: tabled

    return Transformation(  # label: tabled-transformation
        input_domain=rows.input_domain,
        output_domain=rows.output_domain,
        function=tabled,
        input_metric=rows.input_metric,
        output_metric=rows.output_metric,
        stability_map=rows._map,
    )


# proof: end text-table
