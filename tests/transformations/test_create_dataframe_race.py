"""make_create_dataframe with a record that another thread changes mid-call
(make_create_dataframe.tex, "A record changed by another thread"): the function returns a frame
of the snapshot of every record and raises nothing; before the fix, a record shortened between
its length read and the transpose gave an untyped IndexError."""

import importlib
import inspect
import sys
import threading

import pytest

import certdp.prelude as dp

_MODULE = importlib.import_module("certdp.transformations.create_dataframe.make_create_dataframe")


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _line_of(label):
    lines = inspect.getsource(_MODULE).splitlines()
    (index,) = [i for i, line in enumerate(lines) if f"# label: {label}" in line]
    return index + 1


def _run_with_action_at(call, label, action):
    """``call()``, running ``action`` once when ``frame_of_records`` reaches the line of
    ``label``: what a writer thread does if it runs at that instant."""
    target, done = _line_of(label), []

    def local(frame, event, arg):
        if event == "line" and frame.f_lineno == target and not done:
            done.append(1)
            action()
        return local

    def tracer(frame, event, arg):
        if frame.f_code.co_name == "frame_of_records":
            return local
        return None

    sys.settrace(tracer)
    try:
        out = call()
    finally:
        sys.settrace(None)
    assert done, "the line was never reached"
    return out


def _columns(frame):
    return {k: c.values for k, c in frame.columns.items()}


@pytest.mark.parametrize(
    "data, expected",
    [
        # every record full: the all-full path keeps the records, shortened before the transpose
        (
            [["1", "2", "3"], ["4", "5", "6"]],
            {"a": ("1", "4"), "b": ("2", "5"), "c": ("", "6")},
        ),
        # a long record: the pad-or-cut path keeps full records as they are
        (
            [["1", "2", "3"], ["4", "5", "6", "7"]],
            {"a": ("1", "4"), "b": ("2", "5"), "c": ("", "6")},
        ),
    ],
)
def test_a_record_shortened_before_the_transpose_is_read_once_and_padded(data, expected):
    t = dp.t.make_create_dataframe(["a", "b", "c"])
    frame = _run_with_action_at(lambda: t.function(data), "transpose", data[0].pop)
    assert frame.length == 2 and _columns(frame) == expected


def test_a_record_emptied_before_the_transpose_through_invoke():
    t = dp.t.make_create_dataframe(["a", "b"])
    data = [["1", "2"], ["3", "4"], ["5", "6"]]
    frame = _run_with_action_at(lambda: t(data), "transpose", data[1].clear)
    assert _columns(frame) == {"a": ("1", "", "5"), "b": ("2", "", "6")}


def test_a_record_grown_before_the_transpose_keeps_its_first_fields():
    t = dp.t.make_create_dataframe(["a", "b"])
    data = [["1", "2"], ["3", "4"]]
    frame = _run_with_action_at(lambda: t.function(data), "transpose", lambda: data[0].append("x"))
    assert _columns(frame) == {"a": ("1", "3"), "b": ("2", "4")}


def test_no_untyped_error_under_a_racing_mutator_thread():
    """A real writer thread shortens and restores a record while the function runs: every call
    returns a frame whose first row is the record full or shortened (padded), never an error."""
    t = dp.t.make_create_dataframe(["a", "b", "c"])
    data = [["1", "2", "3"] for _ in range(2000)]
    victim = data[0]
    stop = threading.Event()

    def mutate():
        while not stop.is_set():
            victim.pop()
            victim.append("3")

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    writer = threading.Thread(target=mutate)
    writer.start()
    try:
        for _ in range(300):
            frame = t.function(data)
            first = tuple(frame.columns[k].values[0] for k in "abc")
            assert first in {("1", "2", "3"), ("1", "2", "")}, first
            assert frame.length == 2000
            assert all(
                frame.columns[k].values[1:] == ("123"["abc".index(k)],) * 1999 for k in "abc"
            )
    finally:
        stop.set()
        writer.join()
        sys.setswitchinterval(interval)


@pytest.mark.parametrize("field", [5, b"x", None])
@pytest.mark.parametrize("shorten", [False, True])
def test_a_non_text_written_before_the_transpose_is_refused_typed(field, shorten):
    """make_create_dataframe.tex, 'A record changed by another thread': a writer that puts a
    non-text into a record after admission (with or without shortening another, which takes
    the snapshot path) gets a typed FailedFunctionError naming data, never a non-member frame."""
    t = dp.t.make_create_dataframe(["a", "b"])
    data = [["1", "2"], ["3", "4"]]

    def writer():
        if shorten:
            data[0].pop()
        data[1][0] = field

    with pytest.raises(dp.FailedFunctionError) as caught:
        _run_with_action_at(lambda: t(data), "transpose", writer)
    assert caught.value.parameter == "data" and "not a str" in str(caught.value)


def test_a_str_subclass_field_is_refused_by_the_direct_function():
    class Text(str):
        pass

    t = dp.t.make_create_dataframe(["a"])
    with pytest.raises(dp.FailedFunctionError):
        t.function([["1"], [Text("2")]])
    frame = t.function([["1"], ["2"]])
    assert t.output_domain.member(frame)
