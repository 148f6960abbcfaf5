"""Contract of ``make_select_column``: the theorem of make_select_column.tex, executable.

Preconditions (ids as in the proof): ``key`` is a value of the hashable name type ``K``;
``TOA`` names a carrier type.  Stability bound ``d_out = d_in``.  Frames are drawn with the
schema of certdp.contracts.frame_neighbours, and keys from it.
"""

from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.contracts.frame_neighbours import FRAME_SCHEMA
from certdp.core.errors import DPError
from certdp.core.types import carrier
from certdp.transformations.create_dataframe.make_create_dataframe import column_names

from .make_select_column import make_select_column


def _key_ok(a) -> bool:
    try:
        column_names([a.key], a.K, "key")
    except DPError:
        return False
    return True


def _toa_ok(a) -> bool:
    try:
        carrier(a.TOA)
    except DPError:
        return False
    return True


def arguments():
    return st.sampled_from(sorted(FRAME_SCHEMA.items())).map(
        lambda item: {"key": item[0], "TOA": item[1]}
    )


CONTRACT = TransformationContract(
    constructor=make_select_column,
    preconditions=[
        Precondition("key", _key_ok, "key must be a value of a hashable type K", parameter="key"),
        Precondition("toa", _toa_ok, "TOA must name a carrier type", parameter="TOA"),
    ],
    bound=D_IN,
    arguments=arguments,
)
