"""``make_create_dataframe``: load a vector of split lines into a frame of String columns.

Guarantee (make_create_dataframe.tex): every record (a list of fields) is cut or padded with
``""`` to the number of column names, field ``i`` going to column ``col_names[i]`` (the last one
wins for a repeated name), as OpenDP 0.16 does; every output has the same schema, and the rows
of the frame are the row map of the records, so ``d_in -> d_in`` is a valid stability map under
the symmetric distance (core/dataframe_domain.tex, transformations/_rowmap/rowmap.tex).
"""

from __future__ import annotations

import gc
from itertools import repeat
from operator import is_

from certdp.contracts import certified
from certdp.core.dataframe_domain import (
    Column,
    DataFrame,
    DataFrameDomain,
    _record_members,
    reason,
)
from certdp.core.domains import atom_domain, carrier_constant, vector_domain
from certdp.core.errors import (
    DPError,
    FailedFunctionError,
    MakeTransformationError,
    shown,
    type_mismatch,
)
from certdp.core.exact_type import type_is
from certdp.core.metrics import symmetric_distance
from certdp.core.transformation import Transformation
from certdp.core.types import carrier, infer_type

__all__ = ["make_create_dataframe", "column_names", "frame_of_records", "frame_of_fields"]

# proof: begin constructor
#: The carrier type of the columns this step builds.
_STRING = carrier("String")


def column_names(col_names, K, parameter: str = "col_names"):
    """The name type (``K``, else the type of the first name) and the names as exact values;
    a float type, or a name that is not a value of it, raises MakeTransformationError."""
    if not type_is(col_names, list, tuple):  # label: names-sequence
        raise type_mismatch(MakeTransformationError)(
            f"must be a list of column names, not {type(col_names).__name__}", parameter=parameter
        )
    try:
        if K is not None:
            K = carrier(K)  # label: names-carrier
        elif col_names:
            K = infer_type(col_names[0])  # label: names-infer
        else:
            raise MakeTransformationError("cannot infer K from no name; pass K", parameter="K")
    except DPError as error:
        raise MakeTransformationError(reason(error), parameter="K") from None
    if K.is_float:  # label: names-hashable
        raise type_mismatch(MakeTransformationError)(
            f"column names must be hashable (an integer type, bool or String), not {K}",
            parameter="K",
        )
    names = []
    for name in col_names:
        exact_name = carrier_constant(name, K) if type(name) is not float else None
        if exact_name is None:  # label: names-type
            raise type_mismatch(MakeTransformationError)(
                f"{shown(name)} is not a value of {K}", parameter=parameter
            )
        names.append(exact_name)
    return K, names


def frame_of_records(records, K, names) -> DataFrame:
    """The frame whose column ``names[i]`` holds field ``i`` of every record (``""`` past the
    end of a short record; the last index of a repeated name wins)."""
    width = len(names)
    if set(map(len, records)) <= {width}:
        rows = records  # label: all-full
    else:
        rows = [
            record
            if len(record) == width
            else record[:width]
            if len(record) > width
            else [*record, *[""] * (width - len(record))]
            for record in records
        ]  # label: pad-or-cut
    fields = list(zip(*rows)) if rows else [()] * width  # label: transpose
    if len(fields) < width:  # label: short-transpose
        # A record shortened after its length was read (another thread): read each record once.
        rows = [
            (*record, *[""] * width)[:width] for record in map(tuple, records)
        ]  # label: snapshot
        fields = list(zip(*rows))  # label: snapshot-transpose
    return frame_of_fields(fields, len(rows), K, names)  # label: frame


def frame_of_fields(fields, length, K, names) -> DataFrame:
    """The frame of ``length`` rows whose column ``names[i]`` is the tuple ``fields[i]`` (the
    last index of a repeated name wins)."""
    last = {name: i for i, name in enumerate(names)}  # label: last-wins
    columns = {name: Column(_STRING, fields[i]) for name, i in last.items()}  # label: columns
    return DataFrame(K, columns, length)  # label: fields-frame


@certified
def make_create_dataframe(col_names, K=None) -> Transformation:
    """Load each record (a list of String fields) as one row: field ``i`` in column
    ``col_names[i]``, cut or padded with ``""``; stability ``d_in -> d_in``."""
    K, names = column_names(col_names, K)  # label: names

    def function(data):
        collecting = gc.isenabled()  # label: gc-pause
        gc.disable()  # a million new tuples would start a full collection again and again
        try:
            records = list(data)  # label: records-copy
            frame = frame_of_records(records, K, names)  # label: function
        finally:
            if collecting:
                gc.enable()  # label: gc-resume
        for column in frame.columns.values():
            if not all(map(is_, map(type, column.values), repeat(str))):  # label: fields-texts
                raise FailedFunctionError(
                    "a field is not a str (a record changed by another thread during the call?)",
                    parameter="data",
                )
        return _record_members(frame)  # label: frame-out

    def stability_map(d_in):
        return d_in  # label: stability-map

    return Transformation(
        input_domain=vector_domain(vector_domain(atom_domain(T="String"))),
        output_domain=DataFrameDomain(K),  # label: output-domain
        function=function,
        input_metric=symmetric_distance(),
        output_metric=symmetric_distance(),
        stability_map=stability_map,
    )


# proof: end constructor
