"""Contract of ``make_df_cast_default``: the theorem of make_df_cast_default.tex, executable.

Preconditions (ids as in the proof): a frame domain under the symmetric distance and a column
name of its name type; ``TIA`` and ``TOA`` name carrier types.  Stability bound ``d_out =
d_in``.  Frames are drawn with the schema of certdp.contracts.frame_neighbours.
"""

from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.contracts.frame_neighbours import FRAME_SCHEMA
from certdp.core.dataframe_domain import dataframe_domain
from certdp.core.errors import DPError
from certdp.core.metrics import symmetric_distance
from certdp.core.types import carrier

from .make_df_cast_default import frame_input, make_df_cast_default


def _frame_ok(a) -> bool:
    try:
        frame_input(a.input_domain, a.input_metric, a.column_name)
    except DPError:
        return False
    return True


def _types_ok(a) -> bool:
    try:
        carrier(a.TIA), carrier(a.TOA)
    except DPError:
        return False
    return True


FRAME_INPUT = Precondition(
    "frame-input",
    _frame_ok,
    "input_domain must be a DataFrameDomain under symmetric_distance(), column_name of its K",
    parameter="input_domain",
)


@st.composite
def arguments(draw):
    name, TIA = draw(st.sampled_from(sorted(FRAME_SCHEMA.items())))
    return {
        "input_domain": dataframe_domain("String"),
        "input_metric": symmetric_distance(),
        "column_name": name,
        "TIA": TIA,
        "TOA": draw(st.sampled_from(["String", "bool", "i32", "u8", "f64", "f32"])),
    }


CONTRACT = TransformationContract(
    constructor=make_df_cast_default,
    preconditions=[
        FRAME_INPUT,
        Precondition("types", _types_ok, "TIA and TOA must name carrier types", parameter="TOA"),
    ],
    bound=D_IN,
    arguments=arguments,
)
