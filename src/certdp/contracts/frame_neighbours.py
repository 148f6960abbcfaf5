"""Neighbouring data frames for the contracts of the frame steps.

Every drawn frame has the schema ``FRAME_SCHEMA`` (names of type String): pairs at finite
distance share a schema (core/dataframe_domain.tex), and the contracts draw column names and
types from this schema, so the steps run on both sides; their schema errors are tested apart.
"""

from __future__ import annotations

import math

from hypothesis import strategies as st

from certdp.core.dataframe_domain import Column, DataFrame, DataFrameDomain
from certdp.core.types import carrier

from .neighbours import register_neighbours

__all__ = ["FRAME_SCHEMA", "frame_of_rows"]

#: Column name -> carrier type of every frame the contracts draw.
FRAME_SCHEMA = {"a": "String", "b": "bool", "c": "i32", "d": "f64"}

_ENTRIES = {
    "String": st.sampled_from(["", "0", "1", "7", "x", " 2", "-3", "1.5", "nan", "true"]),
    "bool": st.booleans(),
    "i32": st.integers(-3, 3),
    "f64": st.sampled_from([0.0, -0.0, 1.5, 7.0, math.inf, math.nan]),
}
_ROW = st.tuples(*(_ENTRIES[T] for _, T in sorted(FRAME_SCHEMA.items())))


def frame_of_rows(rows) -> DataFrame:
    """The String-named frame of schema ``FRAME_SCHEMA`` whose rows are ``rows``."""
    names = sorted(FRAME_SCHEMA)
    columns = {
        name: Column(carrier(FRAME_SCHEMA[name]), tuple(row[i] for row in rows))
        for i, name in enumerate(names)
    }
    return DataFrame(carrier("String"), columns, len(rows))


@st.composite
def _frame_pairs(draw, domain, metric, d_in, max_size):
    rows = draw(st.lists(_ROW, max_size=max_size))
    edited = list(rows)
    budget = min(int(d_in) if d_in != math.inf else max_size, max_size)
    removals = draw(st.integers(0, min(budget, len(edited))))
    for _ in range(removals):
        del edited[draw(st.integers(0, len(edited) - 1))]
    for _ in range(draw(st.integers(0, budget - removals))):
        edited.insert(draw(st.integers(0, len(edited))), draw(_ROW))
    edited = draw(st.permutations(edited))
    return frame_of_rows(rows), frame_of_rows(list(edited))


register_neighbours(DataFrameDomain, _frame_pairs)
