"""SMT model of ``make_select_column`` and its bounded theorem (certdp.contracts.smt_rows).

The row function (the entry of one column) is left uninterpreted.
"""

from __future__ import annotations

from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_rows import SIZE, row_map_obligation

__all__ = ["obligations", "MODELLED", "SCOPE"]


import math


def build():
    from .make_select_column import make_select_column

    return make_select_column("a", "String")


def _frames():
    from certdp.contracts.frame_neighbours import frame_of_rows

    rows = [
        ("7", True, 3, 1.5),
        (" 2", False, -3, -math.inf),
        ("x", True, 0, -0.0),
        ("", False, 1, 7.0),
    ]
    return frame_of_rows(rows), [frame_of_rows([row]) for row in rows]


CLAIM = "key=a TOA=String"
WHOLE, ALONE = _frames()
OPTION = False


def ROWS(column):
    return [(entry,) for entry in column]


EXPECTED = [("7",), (" 2",), ("x",), ("",)]


def obligations(names=None):
    if names is not None and "make_select_column" not in names:
        return []
    return [
        row_map_obligation(
            "make_select_column", CLAIM, build, d_in, WHOLE, ALONE, ROWS, EXPECTED, OPTION
        )
        for d_in in (1, 2)
    ]


MODELLED = {
    "make_select_column": [
        "transformations/select_column/make_select_column.py",
        "core/dataframe_domain.py",
        "contracts/frame_neighbours.py",
    ]
}

SCOPE = {
    "make_select_column": Scope(
        formats=("String",),
        sizes=(SIZE,),
        bound_to_code="the real make_select_column is built, its own map is called at d_in, and its own "
        "function is run on a probe input as a whole and record by record: the rows must be "
        "the concatenation of the single-record outputs and equal a fixed table (certdp's "
        "outputs, which the tests compare with OpenDP 0.16)",
        free_functions=("the row function g (one entry of a row), any function of one row",),
        assumed=("that the row function depends on its record alone and never raises on the "
                 "probe schema (the proof's lemmas; the probes check it on examples)",),
        instances="key 'a', TOA String, on the contracts' frame schema; d_in 1 and 2",
    )
}  # fmt: skip
