"""core/dataframe_domain: frames, their schema and rows, the domain's admission, schema_column's
typed errors, and the symmetric distance of frames (rows when schemas agree, +inf otherwise)."""

import math

import pytest

from certdp.core.dataframe_domain import (
    Column,
    DataFrame,
    DataFrameDomain,
    dataframe_domain,
    schema_column,
)
from certdp.core.errors import FailedCastError, FailedFunctionError, MakeDomainError
from certdp.core.metrics import symmetric_distance
from certdp.core.types import carrier

S, I32, B = carrier("String"), carrier("i32"), carrier("bool")


def _frame(a, b, K=S):
    return DataFrame(K, {"a": Column(S, tuple(a)), "b": Column(I32, tuple(b))}, len(a))


def test_rows_follow_sorted_names_and_empty_frames_keep_their_length():
    frame = DataFrame(S, {"b": Column(I32, (1, 2)), "a": Column(S, ("x", "y"))}, 2)
    assert frame.rows() == [("x", 1), ("y", 2)]
    assert DataFrame(S, {}, 3).rows() == [(), (), ()]
    assert frame.schema() == frozenset({("a", S), ("b", I32)})


def test_symmetric_distance_of_frames():
    d = symmetric_distance().distance
    assert d(_frame(["x", "y"], [1, 2]), _frame(["y", "x"], [2, 1])) == 0
    assert d(_frame(["x", "y"], [1, 2]), _frame(["x"], [1])) == 1
    assert d(_frame(["x"], [1]), _frame(["x"], [2])) == 2
    retyped = DataFrame(S, {"a": Column(S, ()), "b": Column(B, ())}, 0)
    assert d(_frame([], []), retyped) == math.inf  # empty, but another schema
    assert d(_frame([], []), DataFrame(S, {"a": Column(S, ())}, 0)) == math.inf
    assert d(_frame(["x"], [1]), [("x", 1)]) == math.inf
    assert d(DataFrame(S, {}, 2), DataFrame(S, {}, 5)) == 3


def test_frames_are_immutable_and_columns_share_one_length():
    frame = _frame(["x"], [1])
    with pytest.raises(FailedFunctionError):
        frame.length = 3
    with pytest.raises(TypeError):
        frame.columns["c"] = Column(S, ("z",))
    with pytest.raises(FailedFunctionError, match="one common length"):
        DataFrame(S, {"a": Column(S, ("x",)), "b": Column(I32, ())}, 1)


def test_domain_admission_and_construction():
    domain = dataframe_domain(str)
    assert repr(domain) == 'DataFrameDomain("String")' and domain == DataFrameDomain(S)
    frame = _frame(["x"], [1])
    assert domain.admit(frame) is frame
    assert not domain.member({"a": ["x"]})
    assert not dataframe_domain("i32").member(frame)
    with pytest.raises(MakeDomainError, match="K"):
        dataframe_domain("f64")
    with pytest.raises(MakeDomainError):
        dataframe_domain("nonsense")


def test_schema_column_errors_read_the_schema_alone():
    for frame in (_frame([], []), _frame(["x"] * 50, range(50))):
        with pytest.raises(FailedFunctionError, match="key: column does not exist: 'z'"):
            schema_column(frame, "z", S, "key")
        with pytest.raises(FailedCastError, match="key: column 'b' holds i32, not String"):
            schema_column(frame, "b", S, "key")
        assert schema_column(frame, "b", None, "key").T == I32


def test_hand_built_frames_with_foreign_entries_or_names_are_refused():
    domain = dataframe_domain(str)
    floats = DataFrame(S, {"c": Column(carrier("f64"), (math.nan, -0.0))}, 2)
    assert domain.member(floats)
    for bad in (
        DataFrame(S, {"a": Column(S, (1,))}, 1),  # an int in a String column
        DataFrame(S, {1: Column(S, ("x",))}, 1),  # an int name for K = String
        DataFrame(S, {"a": Column(I32, (True,))}, 1),  # a bool is not an i32
        DataFrame(S, {"a": Column(I32, (2**40,))}, 1),  # outside i32
        DataFrame(S, {"a": Column(S, ["x"])}, 1),  # a list, not a tuple
        "not a frame",
    ):
        assert not domain.member(bad)


class _SaysItIsStr(type):
    """A metaclass that makes its classes equal ``str`` and hash as ``str``."""

    def __eq__(cls, other):
        return other is str or type.__eq__(cls, other)

    def __hash__(cls):
        return hash(str)


class _HostileText(str, metaclass=_SaysItIsStr):
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


def test_an_entry_whose_type_only_claims_to_be_str_is_refused():
    """dataframe_domain.tex, entries-types: types are compared by identity, so a str subclass
    whose metaclass makes it equal to (and hash as) str is not a value of String; a set
    inclusion test on the types admitted it."""
    assert {_HostileText} <= {str}  # what a set inclusion test sees
    hostile = DataFrame(S, {"a": Column(S, (_HostileText("x"), "y"))}, 2)
    with pytest.raises(FailedFunctionError, match="an entry is not a value of its type"):
        DataFrameDomain(S).admit(hostile)
    plain = DataFrame(S, {"a": Column(S, ("x", "y"))}, 2)
    assert DataFrameDomain(S).admit(plain) is plain


def test_a_checked_column_is_not_read_again_but_a_changed_one_is():
    """dataframe_domain.tex, domain-known: admission remembers a column it checked, with the
    very type and tuple it checked; a column whose tuple was swapped behind Frozen's back (a
    write to its __dict__) is not the one remembered, so its entries are checked again."""
    from certdp.core import dataframe_domain as module

    def known(column):
        return module._known_members(column, column.T, column.T.name, column.values)

    column = Column(I32, (1, 2))
    frame = DataFrame(S, {"a": column}, 2)
    assert not known(column)
    assert DataFrameDomain(S).admit(frame) is frame
    assert known(column)
    column.__dict__["values"] = (2**40, 1.5)  # bypasses Frozen: outside its hypothesis
    assert not known(column)
    with pytest.raises(FailedFunctionError, match="an entry is not a value of its type"):
        DataFrameDomain(S).admit(frame)


def test_a_column_built_without_its_constructor_is_checked():
    """A Column made by __new__ and filled by hand (before it is marked built) was never
    recorded: its entries are read and a non-member refused."""
    column = Column.__new__(Column)
    column.T, column.values = I32, ("x",)
    frame = DataFrame(S, {"a": Column(I32, (1,))}, 1)
    frame.__dict__["columns"] = {"a": column}
    with pytest.raises(FailedFunctionError, match="an entry is not a value of its type"):
        DataFrameDomain(S).admit(frame)


def test_split_dataframe_records_its_columns_as_members():
    """make_split_dataframe.tex, flat-members and frame: the frame it returns has its columns
    recorded (every entry is a str it split off), on the fast path and the plain one."""
    import certdp.prelude as dp
    from certdp.core import dataframe_domain as module

    dp.enable_features("contrib")
    split = dp.t.make_split_dataframe(separator=",", col_names=["a", "b"])
    for text in ("1,2\n3,4\n", "1, 2\n3\n"):
        frame = split(text)
        columns = frame.columns.values()
        assert columns and all(module._known_members(c, c.T, c.T.name, c.values) for c in columns)
    assert DataFrameDomain(S).admit(frame) is frame
