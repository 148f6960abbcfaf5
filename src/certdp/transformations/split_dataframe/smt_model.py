"""SMT model of ``make_split_dataframe`` and its bounded theorem (certdp.contracts.smt_rows).

The row function (split a line, pad or cut, pick) is left uninterpreted; the lines of a
text are its records (core/metrics.tex), and the probe checks the frame of a text is the rows
of its lines one by one.
"""

from __future__ import annotations

from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_rows import SIZE, row_map_obligation

__all__ = ["obligations", "MODELLED", "SCOPE"]


def build():
    from .make_split_dataframe import make_split_dataframe

    return make_split_dataframe(",", ["a", "b"])


CLAIM = "separator=, col_names=[a, b]"
WHOLE = '1, x\n\n3,4,5\n"p,q"\r\n'
# A text of one empty line is "\n" (the empty text has no line).
ALONE = ["1, x", "\n", "3,4,5", '"p,q"\r\n']
OPTION = False


def ROWS(frame):
    return frame.rows()


EXPECTED = [("1", "x"), ("", ""), ("3", "4"), ('"p', 'q"')]


def obligations(names=None):
    if names is not None and "make_split_dataframe" not in names:
        return []
    return [
        row_map_obligation(
            "make_split_dataframe", CLAIM, build, d_in, WHOLE, ALONE, ROWS, EXPECTED, OPTION
        )
        for d_in in (1, 2)
    ]


MODELLED = {
    "make_split_dataframe": [
        "transformations/split_dataframe/make_split_dataframe.py",
        "core/dataframe_domain.py",
        "core/metrics.py",
        "transformations/split_records/make_split_records.py",
        "transformations/create_dataframe/make_create_dataframe.py",
    ]
}

SCOPE = {
    "make_split_dataframe": Scope(
        formats=("String",),
        sizes=(SIZE,),
        bound_to_code="the real make_split_dataframe is built, its own map is called at d_in, and its own "
        "function is run on a probe input as a whole and record by record: the rows must be "
        "the concatenation of the single-record outputs and equal a fixed table (certdp's "
        "outputs, which the tests compare with OpenDP 0.16)",
        free_functions=("the row function g (split, pad or cut, pick), any function of one line",),
        assumed=("that the row function depends on its record alone and never raises on the "
                 "probe schema (the proof's lemmas; the probes check it on examples)",),
        instances="separator ',' and col_names ['a', 'b']; d_in 1 and 2",
    )
}  # fmt: skip
