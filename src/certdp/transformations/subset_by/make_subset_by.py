"""``make_subset_by``: keep the rows whose bool column ``indicator_column`` is true, and of
them only the columns ``keep_columns``.

Guarantee (make_subset_by.tex): the output schema is a function of the input schema; a missing
column or a non-bool indicator raises an error that depends only on the schema; each row is
kept or dropped by itself and projected, so ``d_in -> d_in`` is a valid stability map under the
symmetric distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.dataframe_domain import Column, DataFrame, DataFrameDomain, schema_column
from certdp.core.metrics import symmetric_distance
from certdp.core.transformation import Transformation
from certdp.core.types import carrier
from certdp.transformations.create_dataframe.make_create_dataframe import column_names

__all__ = ["make_subset_by"]

# proof: begin constructor
#: The carrier type the indicator column must have.
_BOOL = carrier("bool")


@certified
def make_subset_by(indicator_column, keep_columns, TK=None) -> Transformation:
    """Rows where ``indicator_column`` is true, restricted to ``keep_columns``; stability
    ``d_in -> d_in``."""
    TK, (indicator,) = column_names([indicator_column], TK, "indicator_column")  # label: indicator
    _, keep = column_names(keep_columns, TK, "keep_columns")  # label: keep

    def function(frame):
        flags = schema_column(frame, indicator, _BOOL, "indicator_column").values  # label: flags
        kept = [i for i, flag in enumerate(flags) if flag]  # label: kept
        columns = {}
        for name in keep:
            column = schema_column(frame, name, None, "keep_columns")  # label: keep-lookup
            columns[name] = Column(
                column.T, tuple(column.values[i] for i in kept)
            )  # label: project
        return DataFrame(frame.K, columns, len(kept))  # label: function

    def stability_map(d_in):
        return d_in  # label: stability-map

    return Transformation(
        input_domain=DataFrameDomain(TK),
        output_domain=DataFrameDomain(TK),  # label: output-domain
        function=function,
        input_metric=symmetric_distance(),
        output_metric=symmetric_distance(),
        stability_map=stability_map,
    )


# proof: end constructor
