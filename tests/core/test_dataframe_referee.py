"""Referee findings on hand-built frames, frame metrics and error texts (referee-frames, s8)."""

import pytest

import certdp.prelude as dp
from certdp.core.dataframe_domain import Column, DataFrame, DataFrameDomain
from certdp.core.errors import DPError
from certdp.core.types import carrier

S = carrier("String")


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def test_hand_built_frame_with_a_non_column_value_raises_a_typed_error():
    with pytest.raises(DPError, match="columns"):
        DataFrame(S, {"a": 1}, 0)


def test_hand_built_frame_with_a_non_dict_columns_raises_a_typed_error():
    with pytest.raises(DPError, match="columns"):
        DataFrame(S, [("a", Column(S, ()))], 0)


def test_domain_refuses_a_frame_with_a_negative_length():
    with pytest.raises(DPError):
        DataFrameDomain(S).admit(DataFrame(S, {}, -3))


@pytest.mark.parametrize("length", [2.5, True, "2", None, -1])
def test_a_frame_length_must_be_a_non_negative_int(length):
    with pytest.raises(DPError, match="length"):
        DataFrame(S, {}, length)


def test_domain_refuses_a_frame_with_a_non_integer_length():
    """Either the frame is refused (typed) or its distance is a typed error or a number."""
    try:
        frame = DataFrame(S, {}, 2.5)
        DataFrameDomain(S).admit(frame)
    except DPError:
        return
    with pytest.raises(DPError):
        dp.symmetric_distance().distance(frame, DataFrame(S, {}, 1))


def test_zero_column_frames_have_a_distance():
    assert dp.symmetric_distance().distance(DataFrame(S, {}, 3), DataFrame(S, {}, 1)) == 2


def test_insert_delete_distance_on_frames_is_typed():
    sd = dp.t.make_split_dataframe(",", ["a", "b"])
    a, b = sd("1,2\n3,4"), sd("3,4\n1,2")
    with pytest.raises(DPError, match="^a: "):
        dp.insert_delete_distance().distance(a, b)
    with pytest.raises(DPError, match="^b: "):
        dp.insert_delete_distance().distance(["x"], b)


@pytest.mark.parametrize(
    "build, prefix",
    [
        (lambda: dp.t.make_create_dataframe([]), "K: "),
        (lambda: dp.t.make_create_dataframe([__import__("fractions").Fraction(1)]), "K: "),
        (lambda: dp.t.make_select_column("a", TOA=None), "TOA: "),
        (lambda: dp.t.make_select_column("a", TOA="nope"), "TOA: "),
    ],
)
def test_error_prefixes_are_not_doubled(build, prefix):
    with pytest.raises(DPError) as caught:
        build()
    message = str(caught.value)
    assert message.startswith(prefix), message
    rest = message[len(prefix) :]
    assert not (len(rest) > 3 and rest.split(":")[0].isidentifier() and ": " in rest[:8]), message


def test_the_unsound_edit_really_breaks_stability():
    """The edits of tests/prove/test_frame_models.py that double a one-row output holding "q"
    are real violations: two rows against none is distance 2 > map(1) = 1."""
    doubled = ["q", "q"]
    assert dp.symmetric_distance().distance(doubled, []) == 2 > 1
