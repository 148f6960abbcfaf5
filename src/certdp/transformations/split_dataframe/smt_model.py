"""SMT model of ``make_split_dataframe`` and its bounded theorem (certdp.contracts.smt_rows).

The row function (split a line, pad or cut, pick) is left uninterpreted; the lines of a
text are its records (core/metrics.tex), and the probe checks the frame of a text is the rows
of its lines one by one.
"""

from __future__ import annotations

from certdp.contracts.frame_probes import text_lines_probe
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_rows import ABSTRACTION, ASSUMED, BOUND, SIZE, row_map_obligation

__all__ = ["obligations", "MODELLED", "SCOPE"]


def build():
    from .make_split_dataframe import make_split_dataframe

    return make_split_dataframe(",", ["a", "b"])


CLAIM = "separator=, col_names=[a, b]"
TABLE = '1, x\n\n3,4,5\n"p,q"\r\n'
RECORDS = text_lines_probe()


def DATASET(lines):
    # Every line ends in "\n", so a text of one empty line is "\n" (the empty text has none).
    return "".join(line + "\n" for line in lines)


OPTION = False


def ROWS(frame):
    return frame.rows()


EXPECTED = [("1", "x"), ("", ""), ("3", "4"), ('"p', 'q"')]


def obligations(names=None):
    if names is not None and "make_split_dataframe" not in names:
        return []
    return [
        row_map_obligation(
            "make_split_dataframe",
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
    "make_split_dataframe": [
        "transformations/split_dataframe/make_split_dataframe.py",
        "core/dataframe_domain.py",
        "core/metrics.py",
        "transformations/split_records/make_split_records.py",
        "transformations/create_dataframe/make_create_dataframe.py",
        "contracts/frame_probes.py",
        "contracts/smt_rows.py",
    ]
}

SCOPE = {
    "make_split_dataframe": Scope(
        formats=("String",),
        sizes=(SIZE,),
        bound_to_code=BOUND,
        abstractions=ABSTRACTION,
        free_functions=("the row function g (split, pad or cut, pick), any function of one line",),
        assumed=ASSUMED,
        instances="separator ',' and col_names ['a', 'b']; d_in 1 and 2",
    )
}  # fmt: skip
