"""refframe: a frame column may skip admission's entry check only when its record is true.

The table of known members (dataframe_domain.tex, "Columns known to be members") outlives the
call that writes it, so every write must hold for every call, however reached.  Findings of the
referee of branch ``perfframe`` (each test fails without its fix):

1. split_dataframe's function, reached without admission of a str (called directly, from a
   hand-built stage, or behind a replaced input domain), recorded columns of non-strs
   (fix: it records only when ``type(text) is str``);
2. a CarrierType whose name is a str subclass that changes what it equals kept the record's
   name object while changing membership (fix: admission refuses a name that is not an exact
   str);
3. admission checked the entries against ``T`` while another thread switched ``T.name``, and
   recorded the name it read before (fix: the name is read once, and the entries are checked
   against a carrier type built from that name);
and, found while fixing 3, the same switch while ``_record_members`` reads a column's type name
(fix: it records the name ``"String"`` its callers' proofs are about, not the name it reads).
A switch "from another thread" is made deterministic here by a profile hook that makes it at
the call of the named function.
"""

import importlib
import sys

import pytest

import certdp.prelude as dp
from certdp.core import dataframe_domain as module
from certdp.core.dataframe_domain import Column, DataFrame, DataFrameDomain, dataframe_domain
from certdp.core.domains import Domain
from certdp.core.errors import FailedFunctionError
from certdp.core.types import CarrierType, carrier

S = carrier("String")
INTS = dp.vector_domain(dp.atom_domain(T="i32"))
SYM = dp.symmetric_distance()
NOT_A_MEMBER = "an entry is not a value of its type"


class _Line(str):
    def split(self, sep=None, maxsplit=-1):
        return [2**40, 1.5]


class _Text(str):
    def split(self, sep=None, maxsplit=-1):
        return [_Line("zz")]


def _split():
    dp.enable_features("contrib")
    return dp.t.make_split_dataframe(separator=",", col_names=["a", "b"])


def _switching_at(function_name, switch):
    """A profile hook calling ``switch()`` at the first call of a Python function named
    ``function_name``; ``calls`` counts those calls."""
    calls = []

    def hook(frame, event, arg):
        if event == "call" and frame.f_code.co_name == function_name:
            if not calls:
                switch()
            calls.append(frame)

    return hook, calls


def _profiled(hook, run):
    sys.setprofile(hook)
    try:
        return run()
    finally:
        sys.setprofile(None)


# --- finding 1: split_dataframe records only the frame of an exact str --------------------------


def test_raw_function_of_split_dataframe_records_a_non_member():
    frame = _split().function(_Text("zz"))  # String columns holding 2**40 and 1.5
    assert frame.columns["a"].values == (2**40,)
    with pytest.raises(FailedFunctionError, match=NOT_A_MEMBER):
        DataFrameDomain(S).admit(frame)


def test_hand_built_stage_calling_split_function_feeds_a_proven_stage():
    split = _split()
    liar = dp.Transformation(
        INTS, dataframe_domain("String"), lambda xs: split.function(_Text("zz")), SYM, SYM, id
    )
    chain = liar >> dp.t.make_select_column(key="a", TOA="String")
    with pytest.raises(FailedFunctionError, match=NOT_A_MEMBER):
        chain([1])  # perfframe returned [1099511627776]


class _Plain(str):
    pass


class _Permissive(Domain):
    def admit(self, value):
        return value

    def _key(self):
        return ()


def test_replaced_input_domain_of_split_dataframe_records_a_non_member():
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")
    split = _split()
    split.input_domain = _Permissive()
    frame = split(_Text("zz"))
    with pytest.raises(FailedFunctionError, match=NOT_A_MEMBER):
        DataFrameDomain(S).admit(frame)


# --- finding 2: a type name that is not an exact str ----------------------------------------------


class _Name(str):
    """Compares and hashes as ``"i32"`` or as ``"String"``, as ``pretends`` says; its text is
    ``"i32"``."""

    pretends = "i32"

    def __eq__(self, other):
        return type(self).pretends == other

    def __hash__(self):
        return hash(type(self).pretends)


def test_a_type_whose_name_is_not_an_exact_str_changes_membership_without_identity_change():
    T = CarrierType("i32")
    object.__setattr__(T, "name", _Name("i32"))  # a frozen dataclass, written past its freeze
    frame = DataFrame(S, {"a": Column(T, (1, 2))}, 2)
    try:
        try:
            DataFrameDomain(S).admit(frame)  # perfframe: checked as i32, recorded
        except FailedFunctionError:
            pass
        _Name.pretends = "String"  # the same name object now names String: (1, 2) are not strs
        with pytest.raises(FailedFunctionError, match="not a carrier type"):
            DataFrameDomain(S).admit(frame)  # perfframe: accepted unread
    finally:
        _Name.pretends = "i32"


# --- finding 3: the type's name switched while admission checks the entries ----------------------


def test_a_type_name_switched_during_the_entry_check_gets_no_non_member_recorded():
    T = CarrierType("String")
    frame = DataFrame(S, {"a": Column(T, (1, 2))}, 2)
    hook, calls = _switching_at("_entries_of", lambda: object.__setattr__(T, "name", "i32"))
    with pytest.raises(FailedFunctionError, match=NOT_A_MEMBER):
        _profiled(hook, lambda: DataFrameDomain(S).admit(frame))  # perfframe: accepted
    assert calls  # the switch happened during the check
    object.__setattr__(T, "name", "String")  # and back: the column is the one first admitted
    with pytest.raises(FailedFunctionError, match=NOT_A_MEMBER):
        DataFrameDomain(S).admit(frame)  # perfframe: recorded as String, accepted unread


def test_a_type_name_switched_while_split_records_its_columns_gets_no_non_member_recorded():
    create = importlib.import_module(
        "certdp.transformations.create_dataframe.make_create_dataframe"
    )
    split = _split()
    shared = create._STRING  # the type of every column split_dataframe builds
    hook, calls = _switching_at(
        "_record_members", lambda: object.__setattr__(shared, "name", "i32")
    )
    try:
        frame = _profiled(hook, lambda: split("1,2\n3,4\n"))
        assert calls and frame.columns["a"].T.name == "i32"  # i32 columns of strs
        with pytest.raises(FailedFunctionError, match=NOT_A_MEMBER):
            DataFrameDomain(S).admit(frame)  # perfframe: recorded under i32, accepted unread
    finally:
        object.__setattr__(shared, "name", "String")


# --- what the fixes keep: split's frames are still admitted unread --------------------------------


def test_admission_reads_no_entry_of_a_frame_split_from_an_exact_str():
    """The record of ``_record_members`` names ``"String"`` by the very object the column's
    type holds (CPython interns both literals), so admission finds it; a frame whose columns
    were not recorded is read."""
    split = _split()
    for text in ("1,2\n3,4\n", "1, 2\n3\n"):  # the flat path and the plain one
        frame = split(text)
        hook, calls = _switching_at("_entries_of", lambda: None)
        assert _profiled(hook, lambda frame=frame: DataFrameDomain(S).admit(frame)) is frame
        assert not calls
    unrecorded = split.function(_Plain("1,2\n3,4\n"))  # strs, but not recorded
    hook, calls = _switching_at("_entries_of", lambda: None)
    _profiled(hook, lambda: DataFrameDomain(S).admit(unrecorded))
    assert len(calls) == len(unrecorded.columns)
    assert all(
        module._known_members(c, c.T, c.T.name, c.values) for c in unrecorded.columns.values()
    )  # recorded now, by admission, under the name it read
