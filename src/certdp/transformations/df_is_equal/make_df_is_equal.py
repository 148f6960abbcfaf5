"""``make_df_is_equal``: replace the column ``column_name`` of a frame by its entries' equality
with ``value`` (a bool column).

Guarantee (make_df_is_equal.tex): the output schema is a function of the input schema, a
missing column or one not of ``TIA`` raises an error that depends only on the schema, and the
rows change by a row map, so ``d_in -> d_in`` is a valid stability map under the symmetric
distance.
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.dataframe_domain import Column, DataFrame, reason, schema_column
from certdp.core.domains import carrier_constant
from certdp.core.errors import DPError, MakeTransformationError, shown, type_mismatch
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Transformation
from certdp.core.types import carrier, infer_type
from certdp.transformations.df_cast_default.make_df_cast_default import frame_input

__all__ = ["make_df_is_equal", "then_df_is_equal"]

# proof: begin constructor
#: The carrier type of the columns this step builds.
_BOOL = carrier("bool")


@certified
def make_df_is_equal(input_domain, input_metric, column_name, value, TIA=None) -> Transformation:
    """Replace the column ``column_name`` (of ``TIA``, else the type of ``value``) by
    ``entry == value`` for each entry; stability ``d_in -> d_in``."""
    name = frame_input(input_domain, input_metric, column_name)  # label: input
    try:
        TIA = carrier(TIA) if TIA is not None else infer_type(value)  # label: type
    except DPError as error:
        raise MakeTransformationError(reason(error), parameter="TIA") from None
    converted = carrier_constant(value, TIA)  # label: value-convert
    if converted is None:  # label: value-type
        raise type_mismatch(MakeTransformationError)(
            f"{shown(value)} is not a value of {TIA}", parameter="value"
        )

    def function(frame):
        column = schema_column(frame, name, TIA, "column_name")  # label: column
        columns = dict(frame.columns)
        equal = tuple(bool(entry == converted) for entry in column.values)  # label: equal
        columns[name] = Column(_BOOL, equal)
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


then_df_is_equal = partial_constructor(make_df_is_equal)
