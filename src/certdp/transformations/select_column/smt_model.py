"""SMT model of ``make_select_column`` and its bounded theorem (certdp.contracts.smt_rows).

The row function (the entry of one column) is left uninterpreted.
"""

from __future__ import annotations

from certdp.contracts.frame_probes import frame_rows
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_rows import ABSTRACTION, ASSUMED, BOUND, SIZE, row_map_obligation

__all__ = ["obligations", "MODELLED", "SCOPE"]


import math


def build():
    from .make_select_column import make_select_column

    return make_select_column("a", "String")


def DATASET(rows):
    from certdp.contracts.frame_neighbours import frame_of_rows

    return frame_of_rows(rows)


def _frames():
    from certdp.contracts.frame_neighbours import frame_of_rows

    rows = [
        ("7", True, 3, 1.5),
        (" 2", False, -3, -math.inf),
        ("x", True, 0, -0.0),
        ("", False, 1, 7.0),
    ]
    return frame_of_rows(rows)


CLAIM = "key=a TOA=String"
TABLE = _frames()
RECORDS = frame_rows()
OPTION = False


def ROWS(column):
    return [(entry,) for entry in column]


EXPECTED = [("7",), (" 2",), ("x",), ("",)]


def obligations(names=None):
    if names is not None and "make_select_column" not in names:
        return []
    return [
        row_map_obligation(
            "make_select_column",
            CLAIM,
            build,
            d_in,
            RECORDS,
            DATASET,
            ROWS,
            TABLE,
            EXPECTED,
            OPTION,
        )
        for d_in in (1, 2)
    ]


MODELLED = {
    "make_select_column": [
        "transformations/select_column/make_select_column.py",
        "core/dataframe_domain.py",
        "contracts/frame_neighbours.py",
        "contracts/frame_probes.py",
        "contracts/smt_rows.py",
    ]
}

SCOPE = {
    "make_select_column": Scope(
        formats=("String",),
        sizes=(SIZE,),
        bound_to_code=BOUND,
        abstractions=ABSTRACTION,
        free_functions=("the row function g (one entry of a row), any function of one row",),
        assumed=ASSUMED,
        instances="key 'a', TOA String, on the contracts' frame schema; d_in 1 and 2",
    )
}  # fmt: skip
