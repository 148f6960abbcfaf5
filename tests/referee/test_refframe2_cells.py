"""Referee refframe2: split_dataframe's record trusts its closure's separator, which is reachable
(and writable) through attributes: function.__closure__[i].cell_contents."""

import pytest

import certdp.prelude as dp
from certdp.core.dataframe_domain import DataFrameDomain
from certdp.core.errors import DPError
from certdp.core.types import carrier


class _Flat:
    def split(self, sep):
        return [2**40, 1.5]


class _Sep(str):
    def join(self, lines):
        return _Flat()


def test_written_separator_cell_does_not_get_a_non_member_recorded():
    dp.enable_features("contrib")
    split = dp.t.make_split_dataframe(separator=",", col_names=["a", "b"])
    cells = dict(zip(split.function.__code__.co_freevars, split.function.__closure__))
    cells["separator"].cell_contents = _Sep(",")
    frame = split.function("x,y")  # an exact str text
    assert frame.columns["a"].values == (2**40,)
    with pytest.raises(DPError):
        DataFrameDomain(carrier("String")).admit(frame)
