"""Referee ref-pipe2: counterexamples against branch pipe21 (#21 cast fold, bulk option
admission, create_dataframe race fix).  Each test asserts the behaviour the proofs claim (or the
behaviour OpenDP 0.16 / the plain row map has) and failed on pipe21 077c00e.

Copied from the referee's file with its assertions kept (/work/brief/s12/ref-pipe2-tests.py); its docstrings describe the branch before the fixes.

"""

import importlib
import inspect
import sys

import pytest

import certdp.prelude as dp
from certdp.core.domains import Domain, refuse
from certdp.core.errors import DPError
from certdp.core.option_domain import OptionDomain


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _trace_action(module, func_name, label, action):
    """A tracer that runs ``action`` once when ``func_name`` of ``module`` reaches the line of
    ``label``: what another thread may do at that instant."""
    lines = inspect.getsource(module).splitlines()
    (index,) = [i for i, line in enumerate(lines) if f"# label: {label}" in line]
    target, done = index + 1, []

    def local(frame, event, arg):
        if event == "line" and frame.f_lineno == target and not done:
            done.append(1)
            action()
        return local

    def tracer(frame, event, arg):
        if frame.f_code.co_name == func_name and frame.f_code.co_filename == module.__file__:
            return local
        return None

    return tracer, done


def _run_traced(tracer, done, call):
    sys.settrace(tracer)
    try:
        return call()
    finally:
        sys.settrace(None)
        assert done, "the line was never reached"


# --- 1. bulk option admission ----------------------------------------------------------------
class _NoThree(Domain):
    """A user domain wrapping an option domain whose admission also refuses 3 (OptionDomain
    itself is sealed: a subclass of it is refused, see the test below)."""

    def __init__(self, element):
        self.option = OptionDomain(element)

    def admit(self, value):
        if value == 3:
            raise refuse(self, "three is not allowed")
        return self.option.admit(value)

    def _key(self):
        return (self.option,)


def test_a_subclass_of_the_option_domain_is_refused():
    with pytest.raises(DPError, match="OptionDomain is sealed"):
        type("NoThree", (OptionDomain,), {})


def test_vector_admission_honours_an_overridden_option_admit():
    """domains.tex (vector admission) says E.admit_each returns [E.admit(v) for v in data] and
    that 'the only override in certdp, that of the option domain, returns the same list'.  A
    subclass of the exported OptionDomain that overrides admit inherits the bulk fast path
    (each-ints), which never calls the overridden admit: vector_domain(E) admits [1, 3] although
    E refuses 3 (E.member(3) is False).  On main (comprehension of E.admit) this is refused."""
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")
    element = _NoThree(dp.atom_domain(T="i32"))
    assert not element.member(3)
    vector = dp.vector_domain(element)
    with pytest.raises(DPError):
        vector.admit([1, 3])
    assert not vector.member([3])


def test_sized_vector_of_options_never_admits_a_list_of_another_length():
    """domains.tex: the size is tested on the snapshot (the caller's own list for an exact
    list), then admit_each takes ANOTHER copy (each-copy).  An append by another thread between
    the size test and the copy gives an 'admitted' list of length 4 for a domain of size 3: the
    value handed to the function is not a member of the input domain.  (Pre-existing race; the
    new copy in admit_each is one step too late to close it: copy before the size test.)"""
    domains = importlib.import_module("certdp.core.domains")
    vector = dp.vector_domain(dp.option_domain(dp.atom_domain(T="i32")), size=3)
    data = [1, None, 3]
    tracer, done = _trace_action(domains, "admit", "vector-elements", lambda: data.append(4))
    try:
        admitted = _run_traced(tracer, done, lambda: vector.admit(data))
    except DPError:
        return  # a refusal is a correct answer
    assert len(admitted) == 3, admitted


# --- 2. text table (rowmap.tex, Lemma [text table]) ------------------------------------------
def _plain_rows(t):
    cells = dict(zip(t.function.__code__.co_freevars, t.function.__closure__))
    return cells["rows"].cell_contents


@pytest.mark.parametrize("TOA", ["f64", "f32"])
def test_text_table_is_indistinguishable_from_the_row_map_on_nan_texts(TOA):
    """Lemma [text table] states tabled(x) = rows.function(c) 'the same list value for value';
    but all positions of equal texts share ONE result object.  For 'nan' (cast_default to a
    float) Python's own list equality already differs (list == compares by identity first, and
    NaN != NaN), and so does any identity-sensitive downstream step: a user transformation
    len(set(x)) gives 1 after the table and 2 after the row map (and 2 after OpenDP 0.16's
    make_cast_default, whose floats are separate objects).  The lemma must say 'equal up to the
    identity of the elements', or the table must not share NaN results."""
    vs = dp.vector_domain(dp.atom_domain(T="String"))
    t = dp.t.make_cast_default(vs, dp.symmetric_distance(), TOA=TOA)
    rows = _plain_rows(t)
    x = ["nan", "nan"]
    tabled, plain = t.function(list(x)), rows.function(list(x))
    assert len(set(tabled)) == len(set(plain)) == 2
    assert (tabled == tabled[::-1]) == (plain == plain[::-1])


# --- 3. create_dataframe race paragraph -------------------------------------------------------
def test_create_dataframe_under_a_writer_never_returns_a_non_member_frame():
    """make_create_dataframe.tex, 'A record changed by another thread': 'Either way the result
    is a frame of n rows of w texts with the schema above, and no exception is raised.'  A
    writer that replaces a field by a non-text (5, b'x') after admission and before the
    transpose makes t(data) return, silently, a frame with an int/bytes entry in a String
    column: not a member of the output domain (output_domain.member(frame) is False).  The
    sentence is false; the chain catches it at the next admission, a lone invoke does not."""
    module = importlib.import_module(
        "certdp.transformations.create_dataframe.make_create_dataframe"
    )
    t = dp.t.make_create_dataframe(["a", "b"])
    data = [["1", "2"], ["3", "4"]]

    def writer():
        data[0].pop()  # forces the short-transpose snapshot path
        data[1][0] = b"x"

    tracer, done = _trace_action(module, "frame_of_records", "transpose", writer)
    try:
        frame = _run_traced(tracer, done, lambda: t(data))
    except DPError:
        return  # a typed refusal is acceptable
    assert t.output_domain.member(frame), {k: c.values for k, c in frame.columns.items()}
