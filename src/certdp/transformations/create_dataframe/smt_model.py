"""SMT model of ``make_create_dataframe`` and its bounded theorem (certdp.contracts.smt_rows).

The row function (pad or cut a record, pick the fields of the distinct names) is left
uninterpreted: the theorem is checked for every function from a record to a row.
"""

from __future__ import annotations

from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_rows import SIZE, row_map_obligation

__all__ = ["obligations", "MODELLED", "SCOPE"]


def build():
    from .make_create_dataframe import make_create_dataframe

    return make_create_dataframe(["a", "b", "a"])


CLAIM = "col_names=[a, b, a]"
WHOLE = [["1"], ["2", "3", "4"], [], ["a", " b"]]
ALONE = [[record] for record in WHOLE]
OPTION = False


def ROWS(frame):
    return frame.rows()


EXPECTED = [("", ""), ("4", "3"), ("", ""), ("", " b")]


def obligations(names=None):
    if names is not None and "make_create_dataframe" not in names:
        return []
    return [
        row_map_obligation(
            "make_create_dataframe", CLAIM, build, d_in, WHOLE, ALONE, ROWS, EXPECTED, OPTION
        )
        for d_in in (1, 2)
    ]


MODELLED = {
    "make_create_dataframe": [
        "transformations/create_dataframe/make_create_dataframe.py",
        "core/dataframe_domain.py",
    ]
}

SCOPE = {
    "make_create_dataframe": Scope(
        formats=("String",),
        sizes=(SIZE,),
        bound_to_code="the real make_create_dataframe is built, its own map is called at d_in, and its own "
        "function is run on a probe input as a whole and record by record: the rows must be "
        "the concatenation of the single-record outputs and equal a fixed table (certdp's "
        "outputs, which the tests compare with OpenDP 0.16)",
        free_functions=("the row function g (pad or cut, pick), any function of one record",),
        assumed=("that the row function depends on its record alone and never raises on the "
                 "probe schema (the proof's lemmas; the probes check it on examples)",),
        instances="col_names ['a', 'b', 'a']; d_in 1 and 2",
    )
}  # fmt: skip
