"""SMT model of ``make_create_dataframe`` and its bounded theorem (certdp.contracts.smt_rows).

The row function (pad or cut a record, pick the fields of the distinct names) is left
uninterpreted: the theorem is checked for every function from a record to a row.
"""

from __future__ import annotations

from certdp.contracts.frame_probes import field_records
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_rows import ABSTRACTION, ASSUMED, BOUND, SIZE, row_map_obligation

__all__ = ["obligations", "MODELLED", "SCOPE"]


def build():
    from .make_create_dataframe import make_create_dataframe

    return make_create_dataframe(["a", "b", "a"])


CLAIM = "col_names=[a, b, a]"
TABLE = [["1"], ["2", "3", "4"], [], ["a", " b"]]
RECORDS = field_records()


def DATASET(records):
    return [list(record) for record in records]


OPTION = False


def ROWS(frame):
    return frame.rows()


EXPECTED = [("", ""), ("4", "3"), ("", ""), ("", " b")]


def obligations(names=None):
    if names is not None and "make_create_dataframe" not in names:
        return []
    return [
        row_map_obligation(
            "make_create_dataframe",
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
    "make_create_dataframe": [
        "transformations/create_dataframe/make_create_dataframe.py",
        "core/dataframe_domain.py",
        "contracts/frame_probes.py",
        "contracts/smt_rows.py",
    ]
}

SCOPE = {
    "make_create_dataframe": Scope(
        formats=("String",),
        sizes=(SIZE,),
        bound_to_code=BOUND,
        abstractions=ABSTRACTION,
        free_functions=("the row function g (pad or cut, pick), any function of one record",),
        assumed=ASSUMED,
        instances="col_names ['a', 'b', 'a']; d_in 1 and 2",
    )
}  # fmt: skip
