"""SMT model of ``make_subset_by`` and its bounded theorem (certdp.contracts.smt_rows).

The row function (keep a flagged row's kept columns, drop an unflagged row) is left
uninterpreted, as a function from a row to either a row or "dropped": the theorem is checked for
the row map into that option type, and removing the dropped records is the last step of the
proof (it removes one term of the symmetric distance), assumed here.
"""

from __future__ import annotations

from certdp.contracts.frame_probes import frame_rows
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_rows import ABSTRACTION, ASSUMED, BOUND, SIZE, row_map_obligation

__all__ = ["obligations", "MODELLED", "SCOPE"]


import math


def build():
    from .make_subset_by import make_subset_by

    return make_subset_by("b", ["a", "c"])


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


CLAIM = "indicator=b keep=[a, c]"
TABLE = _frames()
RECORDS = frame_rows()
OPTION = True


def ROWS(frame):
    return frame.rows()


EXPECTED = [("7", 3), ("x", 0)]


def obligations(names=None):
    if names is not None and "make_subset_by" not in names:
        return []
    return [
        row_map_obligation(
            "make_subset_by", CLAIM, build, d_in, RECORDS, DATASET, ROWS, TABLE, EXPECTED, OPTION
        )
        for d_in in (1, 2)
    ]


MODELLED = {
    "make_subset_by": [
        "transformations/subset_by/make_subset_by.py",
        "core/dataframe_domain.py",
        "contracts/frame_neighbours.py",
        "contracts/frame_probes.py",
        "contracts/smt_rows.py",
    ]
}

SCOPE = {
    "make_subset_by": Scope(
        formats=("String",),
        sizes=(SIZE,),
        bound_to_code=BOUND,
        abstractions=ABSTRACTION,
        free_functions=("the row function g (keep and project, or drop), any function of one "
                        "row into rows or 'dropped'",),
        assumed=ASSUMED + (
                 "that removing the dropped records of two datasets does not increase their "
                 "symmetric distance (the proof, make_subset_by.tex)",),
        instances="indicator 'b', keep ['a', 'c'], on the contracts' frame schema; d_in 1 and 2",
    )
}  # fmt: skip
