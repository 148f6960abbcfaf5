"""SMT model of ``make_df_cast_default`` and its bounded theorem (certdp.contracts.smt_rows).

The row function (cast one entry, keep the others) is left uninterpreted.
"""

from __future__ import annotations

from certdp.contracts.frame_probes import frame_rows
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_rows import ABSTRACTION, ASSUMED, BOUND, SIZE, row_map_obligation

__all__ = ["obligations", "MODELLED", "SCOPE"]


import math


def build():
    from certdp.core.dataframe_domain import dataframe_domain
    from certdp.core.metrics import symmetric_distance

    from .make_df_cast_default import make_df_cast_default

    return make_df_cast_default(
        dataframe_domain("String"), symmetric_distance(), "a", "String", "i32"
    )


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


CLAIM = "column_name=a String->i32"
TABLE = _frames()
RECORDS = frame_rows()
OPTION = False


def ROWS(frame):
    return frame.rows()


EXPECTED = [(7, True, 3, 1.5), (0, False, -3, -math.inf), (0, True, 0, -0.0), (0, False, 1, 7.0)]


def obligations(names=None):
    if names is not None and "make_df_cast_default" not in names:
        return []
    return [
        row_map_obligation(
            "make_df_cast_default",
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
    "make_df_cast_default": [
        "transformations/df_cast_default/make_df_cast_default.py",
        "core/dataframe_domain.py",
        "contracts/frame_neighbours.py",
        "contracts/frame_probes.py",
        "contracts/smt_rows.py",
        "transformations/_cast/convert.py",
    ]
}

SCOPE = {
    "make_df_cast_default": Scope(
        formats=("String",),
        sizes=(SIZE,),
        bound_to_code=BOUND,
        abstractions=ABSTRACTION,
        free_functions=("the row function g (cast one entry), any function of one row",),
        assumed=ASSUMED,
        instances="column 'a' cast from String to i32, on the contracts' frame schema; d_in 1 and 2",
    )
}  # fmt: skip
