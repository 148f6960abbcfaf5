"""``make_find_bin``: for every record, the index of its bin among strictly increasing
``edges``: the number of edges ``e`` with ``not record < e`` (``0`` below the first edge,
``len(edges)`` from the last edge on, and for NaN).

Guarantee: the output is a vector of ``usize`` of the same length, and ``d_in -> d_in`` is a
valid stability map under the symmetric and the insert-delete distance (1-stable;
transformations/_rowmap/rowmap.tex).  Unsorted, repeated or NaN edges are refused.
"""

from __future__ import annotations

import bisect
import math

from certdp.contracts import certified
from certdp.core.admission import sequence_parameter
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, carrier_constant
from certdp.core.errors import MakeTransformationError, shown
from certdp.core.exact_type import type_is
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.transformations._cast import record_value
from certdp.transformations._rowmap import make_row_by_row

__all__ = ["make_find_bin", "then_find_bin"]


# proof: begin constructor
@certified
def make_find_bin(input_domain, input_metric, edges) -> Transformation:
    """The bin index of each record among ``edges`` (``bisect_right``: records equal to an
    edge go to the bin on its right); stability ``d_in -> d_in``."""
    if not isinstance(input_domain, VectorDomain):  # label: domain-is-vector
        raise MakeTransformationError(
            f"must be a vector_domain, got {input_domain}", parameter="input_domain"
        )
    element_domain = input_domain.element_domain
    if type(element_domain) is not AtomDomain or not element_domain.T.is_numeric:
        raise MakeTransformationError(  # label: element-numeric
            f"elements must come from an atom_domain of a numeric type, got {element_domain}",
            parameter="input_domain",
        )
    T = element_domain.T
    edges = sequence_parameter(edges)  # label: edges-array
    if not type_is(edges, list, tuple):  # label: edges-sequence
        raise MakeTransformationError(
            f"must be a list or tuple, got {type(edges).__name__}", parameter="edges"
        )
    values = [carrier_constant(edge, T) for edge in edges]  # label: edges-values
    for index, value in enumerate(values):
        if value is None or (T.is_float and math.isnan(value)):  # label: edges-type
            raise MakeTransformationError(
                f"edge {index} ({shown(edges[index])}) is not a non-NaN value of {T}",
                parameter="edges",
            )
    for index in range(1, len(values)):
        if not values[index - 1] < values[index]:  # label: edges-increasing
            raise MakeTransformationError(
                f"edges must be unique and ordered: edge {index - 1} ({shown(values[index - 1])})"
                f" is not below edge {index} ({shown(values[index])})",
                parameter="edges",
            )
    sorted_edges = tuple(values)  # label: edges-frozen

    def find_bin(record):
        return bisect.bisect_right(sorted_edges, record_value(record))  # label: row

    output_element = atom_domain(T="usize")  # label: output-element
    return make_row_by_row(
        input_domain, output_element, input_metric, find_bin
    )  # label: row-by-row


# proof: end constructor


then_find_bin = partial_constructor(make_find_bin)
