"""Contract of ``make_subset_by``: the theorem of make_subset_by.tex, executable.

Precondition (id as in the proof): the indicator and kept names are values of one hashable
type.  Stability bound ``d_out = d_in``.  Frames are drawn with the schema of
certdp.contracts.frame_neighbours, whose bool column is ``"b"``.
"""

from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.contracts.frame_neighbours import FRAME_SCHEMA
from certdp.core.errors import DPError
from certdp.transformations.create_dataframe.make_create_dataframe import column_names

from .make_subset_by import make_subset_by


def _names_ok(a) -> bool:
    try:
        TK, _ = column_names([a.indicator_column], a.TK, "indicator_column")
        column_names(a.keep_columns, TK, "keep_columns")
    except DPError:
        return False
    return True


def arguments():
    return st.fixed_dictionaries(
        {
            "indicator_column": st.just("b"),
            "keep_columns": st.lists(st.sampled_from(sorted(FRAME_SCHEMA)), max_size=4),
        }
    )


CONTRACT = TransformationContract(
    constructor=make_subset_by,
    preconditions=[
        Precondition(
            "names",
            _names_ok,
            "indicator_column and keep_columns must be values of one hashable type TK",
            parameter="keep_columns",
        ),
    ],
    bound=D_IN,
    arguments=arguments,
)
