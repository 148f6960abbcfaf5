"""``make_df_cast_default``: cast the column ``column_name`` of a frame from ``TIA`` to ``TOA``,
the default of ``TOA`` where an entry does not convert.

Guarantee (make_df_cast_default.tex): the entries convert as in ``make_cast_default``
(transformations/_cast/convert.tex); the output schema is a function of the input schema, a
missing column or one not of ``TIA`` raises an error that depends only on the schema, and the
rows change by a row map, so ``d_in -> d_in`` is a valid stability map under the symmetric
distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.dataframe_domain import Column, DataFrame, DataFrameDomain, reason, schema_column
from certdp.core.errors import DPError, MakeTransformationError
from certdp.core.metrics import SymmetricDistance
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.core.types import carrier
from certdp.transformations._cast import convert
from certdp.transformations.create_dataframe.make_create_dataframe import column_names

__all__ = ["make_df_cast_default", "then_df_cast_default", "frame_input"]

# proof: begin constructor
#: The default of each kind of type: what an entry that does not convert becomes.
_DEFAULTS = {"bool": False, "String": ""}


def frame_input(input_domain, input_metric, column_name):
    """The name type of a frame domain under the symmetric distance, and ``column_name`` as a
    value of it; anything else raises MakeTransformationError."""
    if type(input_domain) is not DataFrameDomain:  # label: frame-domain
        raise MakeTransformationError(
            f"must be a DataFrameDomain, got {input_domain}", parameter="input_domain"
        )
    if type(input_metric) is not SymmetricDistance:  # label: frame-metric
        raise MakeTransformationError(
            f"must be symmetric_distance(), got {input_metric}", parameter="input_metric"
        )
    _, (name,) = column_names([column_name], input_domain.K, parameter="column_name")
    return name  # label: frame-name


@certified
def make_df_cast_default(input_domain, input_metric, column_name, TIA, TOA) -> Transformation:
    """Cast the column ``column_name`` (of ``TIA``) to ``TOA``, the default of ``TOA`` where an
    entry does not convert; the other columns unchanged; stability ``d_in -> d_in``."""
    name = frame_input(input_domain, input_metric, column_name)  # label: input
    try:
        TIA, TOA = carrier(TIA), carrier(TOA)  # label: types
    except DPError as error:
        raise MakeTransformationError(reason(error), parameter="TIA/TOA") from None
    default = _DEFAULTS.get(TOA.name, 0.0 if TOA.is_float else 0)  # label: default

    def cast(value):
        converted = convert(value, TIA, TOA)  # label: row
        return default if converted is None else converted  # label: row-default

    def function(frame):
        column = schema_column(frame, name, TIA, "column_name")  # label: column
        columns = dict(frame.columns)
        columns[name] = Column(TOA, tuple(cast(value) for value in column.values))  # label: cast
        return DataFrame(frame.K, columns, frame.length)  # label: function

    def stability_map(d_in):
        return d_in  # label: stability-map

    return Transformation(
        input_domain=input_domain,
        output_domain=input_domain,  # label: output-domain
        function=function,
        input_metric=input_metric,
        output_metric=input_metric,
        stability_map=stability_map,
    )


# proof: end constructor


then_df_cast_default = partial_constructor(make_df_cast_default)
