"""``make_select_column``: the column ``key`` of a frame, as a vector of ``TOA``.

Guarantee (make_select_column.tex): the output is the column's entries in row order; a missing
column or one of another type raises a typed error that depends only on the frame's schema
(the same on every pair of frames at finite distance: core/dataframe_domain.tex, Lemma [schema
errors]); the column is the row map "entry at ``key``" of the rows, so ``d_in -> d_in`` is a
valid stability map under the symmetric distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.dataframe_domain import DataFrameDomain, reason, schema_column
from certdp.core.domains import atom_domain, vector_domain
from certdp.core.errors import DPError, MakeTransformationError
from certdp.core.metrics import symmetric_distance
from certdp.core.transformation import Transformation
from certdp.core.types import carrier
from certdp.transformations.create_dataframe.make_create_dataframe import column_names

__all__ = ["make_select_column"]


# proof: begin constructor
@certified
def make_select_column(key, TOA, K=None) -> Transformation:
    """The column ``key`` (of type ``TOA``) of a frame with names of type ``K`` (else the type of
    ``key``); stability ``d_in -> d_in``."""
    K, (key,) = column_names([key], K, parameter="key")  # label: key
    try:
        TOA = carrier(TOA)  # label: output-type
    except DPError as error:
        raise MakeTransformationError(reason(error), parameter="TOA") from None

    def function(frame):
        return list(schema_column(frame, key, TOA, "key").values)  # label: function

    def stability_map(d_in):
        return d_in  # label: stability-map

    return Transformation(
        input_domain=DataFrameDomain(K),
        output_domain=vector_domain(  # label: output-domain
            atom_domain(T=TOA.name, nan=True if TOA.is_float else None)
        ),
        function=function,
        input_metric=symmetric_distance(),
        output_metric=symmetric_distance(),
        stability_map=stability_map,
    )


# proof: end constructor
