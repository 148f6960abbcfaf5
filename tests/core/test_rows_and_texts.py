"""Rows nested too deep and texts of a str subclass are refused with a typed error; both dataset
metrics read a text as its lines (referee-ingest counterexamples 1-4, kept as regressions)."""

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError, FailedCastError
from certdp.core.metrics import MAX_ROW_DEPTH, record_key


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _nested(depth):
    value = "x"
    for _ in range(depth):
        value = [value]
    return value


def test_deeply_nested_list_record_raises_a_typed_error():
    with pytest.raises(DPError):
        dp.symmetric_distance().distance([_nested(5000)], [])


def test_cyclic_list_record_raises_a_typed_error():
    cyclic = []
    cyclic.append(cyclic)
    with pytest.raises(DPError):
        dp.symmetric_distance().distance([cyclic], [])


def test_row_depth_limit_is_exact():
    # MAX_ROW_DEPTH levels of rows are a record; one more is refused, naming the parameter.
    assert record_key(_nested(MAX_ROW_DEPTH)) == record_key(_nested(MAX_ROW_DEPTH))
    assert record_key(_nested(MAX_ROW_DEPTH)) != record_key(_nested(MAX_ROW_DEPTH - 1))
    with pytest.raises(FailedCastError, match="nested more than") as error:
        record_key(_nested(MAX_ROW_DEPTH + 1))
    assert error.value.parameter == "record"
    with pytest.raises(FailedCastError):
        record_key((_nested(MAX_ROW_DEPTH),))
    assert dp.insert_delete_distance().distance([_nested(3)], [_nested(3), ["y"]]) == 1
    with pytest.raises(FailedCastError):
        dp.insert_delete_distance().distance([_nested(10_000)], [])


def test_rows_of_lists_tuples_and_arrays_are_the_same_record():
    assert record_key(["1", "2"]) == record_key(("1", "2"))
    assert record_key([1, 2]) == record_key(np.array([1, 2]))
    assert dp.symmetric_distance().distance([["a", "b"]], [("a", "b")]) == 0


def test_str_subclass_text_is_not_silently_read_as_characters():
    class Text(str):
        pass

    try:
        d = dp.symmetric_distance().distance(Text("a\n"), Text("a"))
    except DPError:
        return
    assert d == 0  # both texts have the single line "a"


def test_str_subclass_text_is_refused_by_both_metrics_naming_the_argument():
    class Text(str):
        pass

    for metric in (dp.symmetric_distance(), dp.insert_delete_distance()):
        with pytest.raises(FailedCastError, match="subclass of str") as error:
            metric.distance(Text("a"), "a")
        assert error.value.parameter == "a"
        with pytest.raises(FailedCastError) as error:
            metric.distance("a", Text("a"))
        assert error.value.parameter == "b"


def test_insert_delete_distance_agrees_with_symmetric_on_what_a_text_is():
    try:
        d = dp.insert_delete_distance().distance("a\nb", "b\na")
    except DPError:
        return
    assert d == 2


def test_both_metrics_read_texts_as_lines():
    sym, ins = dp.symmetric_distance(), dp.insert_delete_distance()
    assert sym.distance("a\nb", "b\na") == 0
    assert ins.distance("a\nb", "b\na") == 2
    assert ins.distance("a\r\nb\n", "a\nb") == 0  # same lines, other line endings
    assert ins.distance(np.str_("a\nb"), "a") == 1
    assert ins.distance("", "x\ny") == 2
    assert sym.distance(np.str_("x\ny\n"), "y\nx") == 0
