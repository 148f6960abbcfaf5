"""Contract of ``make_df_is_equal``: the theorem of make_df_is_equal.tex, executable.

Preconditions (ids as in the proof): a frame domain under the symmetric distance and a column
name of its name type; ``value`` a value of ``TIA``.  Stability bound ``d_out = d_in``.  Frames
are drawn with the schema of certdp.contracts.frame_neighbours.
"""

import math

from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.dataframe_domain import dataframe_domain
from certdp.core.domains import carrier_constant
from certdp.core.errors import DPError
from certdp.core.metrics import symmetric_distance
from certdp.core.types import carrier, infer_type
from certdp.transformations.df_cast_default.contract import FRAME_INPUT

from .make_df_is_equal import make_df_is_equal


def _value_ok(a) -> bool:
    try:
        T = carrier(a.TIA) if a.TIA is not None else infer_type(a.value)
    except DPError:
        return False
    return carrier_constant(a.value, T) is not None


_VALUES = {"a": ("String", ["", "1", "x"]), "b": ("bool", [True, False]),
           "c": ("i32", [0, 3, -3]), "d": ("f64", [1.5, -0.0, math.inf, math.nan])}  # fmt: skip


@st.composite
def arguments(draw):
    name = draw(st.sampled_from(sorted(_VALUES)))
    T, values = _VALUES[name]
    return {
        "input_domain": dataframe_domain("String"),
        "input_metric": symmetric_distance(),
        "column_name": name,
        "value": draw(st.sampled_from(values)),
        "TIA": T,
    }


CONTRACT = TransformationContract(
    constructor=make_df_is_equal,
    preconditions=[
        FRAME_INPUT,
        Precondition("value", _value_ok, "value must be a value of TIA", parameter="value"),
    ],
    bound=D_IN,
    arguments=arguments,
)
