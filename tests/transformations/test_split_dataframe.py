"""make_split_dataframe: OpenDP 0.16's frames (read through make_select_column), the user-guide
PUMS pipeline, hostile texts, bad input, contract and runtime enforcement."""

import dataclasses
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.dataframe_domain import DataFrame
from certdp.core.errors import FailedFunctionError, MakeTransformationError

from .frame_cases import HOSTILE, PUMS_COLUMNS, pums_text


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _column(text, key, separator=",", names=("a", "b", "c")):
    frame = dp.t.make_split_dataframe(separator, list(names))
    return (frame >> dp.t.make_select_column(key, str))(text)


# Each literal: (dp.t.make_split_dataframe(",", ["a","b","c"]) >> dp.t.make_select_column(key,
# str))(HOSTILE) in OpenDP 0.16.0.
@pytest.mark.parametrize(
    "key, column",
    [
        ("a", ["1", "", "3", "4", "a", '"p']),
        ("b", ["x", "", "", "5", "b", 'q"']),
        ("c", ["2", "", "", "6", "", "r"]),
    ],
)
def test_hostile_text_as_in_opendp(key, column):
    assert _column(HOSTILE, key) == column


def test_empty_text_and_none_separator_as_in_opendp():
    # OpenDP 0.16: "" gives []; None splits at ",": ["2"] for "1,2" column "b" of ["a", "b"].
    assert _column("", "c") == []
    assert _column("1,2", "b", separator=None, names=("a", "b")) == ["2"]


def test_pums_user_guide_pipeline_gives_opendps_numbers():
    # OpenDP 0.16.0: split_dataframe(",", cols) >> select_column(col, str) >> then_cast_default(
    # int) >> then_clamp(bounds) >> then_sum(): age (0, 120) -> 44797, map(1) 120, map(3) 360;
    # income (0, 200000) -> 31362684, map(1) 200000, map(3) 600000.
    text = pums_text()
    for column, bounds, total, map_1, map_3 in (
        ("age", (0, 120), 44797, 120, 360),
        ("income", (0, 200_000), 31362684, 200000, 600000),
    ):
        pipeline = (
            dp.t.make_split_dataframe(",", PUMS_COLUMNS)
            >> dp.t.make_select_column(column, str)
            >> dp.t.then_cast_default(int)
            >> dp.t.then_clamp(bounds)
            >> dp.t.then_sum()
        )
        assert (pipeline(text), pipeline.map(1), pipeline.map(3)) == (total, map_1, map_3)


def test_spaces_as_in_opendp():
    t = dp.t.make_split_dataframe(",", ["a"])
    assert repr(t.input_domain) == "AtomDomain(T=String)"
    assert repr(t.output_domain) == 'DataFrameDomain("String")'
    assert t.input_metric == t.output_metric == dp.symmetric_distance()
    assert t.map(3) == 3


def test_hostile_rows_are_loaded_by_one_rule():
    huge = "x" * 1_000_000
    text = f"{huge},1\n\udcff\x00,2\n" + "a,b\n" * 100_000
    column = _column(text, "a", names=("a", "b"))
    assert column[0] == huge and column[1] == "\udcff\x00" and len(column) == 100_002
    assert column[2:] == ["a"] * 100_000


def test_bytes_input_is_refused_with_a_typed_error():
    t = dp.t.make_split_dataframe(",", ["a"])
    with pytest.raises(FailedFunctionError):
        t(b"a,b\n\xff\n")


@pytest.mark.parametrize("separator", [3, 1.5, ["a"]])
def test_non_str_separator_is_refused(separator):
    with pytest.raises(MakeTransformationError, match="separator"):
        dp.t.make_split_dataframe(separator, ["a"])


def test_nul_separator_and_bad_names_are_refused():
    with pytest.raises(MakeTransformationError, match="separator"):
        dp.t.make_split_dataframe(",\x00", ["a"])
    with pytest.raises(MakeTransformationError, match="K"):
        dp.t.make_split_dataframe(",", [])
    with pytest.raises(MakeTransformationError, match="K"):
        dp.t.make_split_dataframe(",", [1.5])
    with pytest.raises(MakeTransformationError, match="col_names"):
        dp.t.make_split_dataframe(",", ["a", 1])
    with pytest.raises(MakeTransformationError, match="col_names"):
        dp.t.make_split_dataframe(",", "ab")


@given(st.lists(st.text(alphabet="ab,\n ", max_size=6), max_size=6), st.integers(0, 5))
def test_frames_of_texts_with_the_same_lines_are_at_distance_zero(lines, shift):
    t = dp.t.make_split_dataframe(",", ["a", "b"])
    rotated = lines[shift % len(lines) :] + lines[: shift % len(lines)] if lines else lines
    joined = "".join(line.replace("\n", "") + "\n" for line in lines)
    rotated_joined = "".join(line.replace("\n", "") + "\n" for line in rotated)
    frames = t(joined), t(rotated_joined)
    assert all(type(frame) is DataFrame for frame in frames)
    assert dp.symmetric_distance().distance(*frames) == 0


def test_contract_verifies():
    report = contract_of(dp.t.make_split_dataframe).verify()
    assert report.examples > 0 and report.max_tightness == 1


def test_a_map_below_the_identity_is_refuted():
    fixed = dataclasses.replace(
        contract_of(dp.t.make_split_dataframe),
        arguments=lambda: st.just({"separator": ",", "col_names": ["a", "b"]}),
    )
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    assert _column("1,2\n", "b", names=("a", "b")) == ["2"]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_split_dataframe("a\x00", ["a"])
    assert error.value.condition == "separator-str-without-nul"


# The untrimmed split and the transposition (make_split_dataframe.tex, make_create_dataframe.tex)
# must give the frame the plain per-row definition gives: every line split and trimmed by
# split_fields, cut or padded with "" to the names, field i of every row in column names[i].
def _plain_frame(text, separator, names):
    from certdp.core.metrics import text_lines
    from certdp.transformations.split_records.make_split_records import split_fields

    rows = []
    for line in text_lines(text):
        fields = split_fields(line, separator)
        fields = (fields + [""] * len(names))[: len(names)]
        rows.append(fields)
    last = {name: i for i, name in enumerate(names)}
    return {name: tuple(row[i] for row in rows) for name, i in last.items()}, len(rows)


_PIECES = st.sampled_from(
    [
        "a",
        "1",
        ",",
        ";",
        ";;",
        "\n",
        "\r",
        "\r\n",
        " ",
        "\t",
        "\x0b",
        "\x0c",
        "\u3000",
        "\x1c",
        "\x85",
        '"',
        "é",
    ]
)


@pytest.mark.parametrize("separator", [",", ";;", "", "a", " "])
@given(
    st.lists(_PIECES, max_size=30).map("".join),
    st.lists(st.sampled_from(["x", "y", "z"]), min_size=1, max_size=4),
)
def test_the_fast_split_equals_the_plain_per_row_frame(separator, text, names):
    frame = dp.t.make_split_dataframe(separator, names)(text)
    columns, length = _plain_frame(text, separator, names)
    assert frame.length == length
    assert {name: column.values for name, column in frame.columns.items()} == columns
    assert all(type(column.values) is tuple for column in frame.columns.values())


def test_the_fast_split_takes_both_paths_on_the_pums_sample():
    text = pums_text()
    for variant in (text, text.replace("\n", " \n", 3), text.replace("\n", "\r\n")):
        frame = dp.t.make_split_dataframe(",", PUMS_COLUMNS)(variant)
        columns, length = _plain_frame(variant, ",", PUMS_COLUMNS)
        assert frame.length == length == 1000
        assert {name: column.values for name, column in frame.columns.items()} == columns


_FIELDS = st.text(alphabet='a1;é"\x1c.-', max_size=3)


@given(
    st.integers(1, 4).flatmap(
        lambda w: st.tuples(
            st.just(w), st.lists(st.lists(_FIELDS, min_size=w, max_size=w), min_size=1)
        )
    ),
    st.booleans(),
    st.lists(st.sampled_from(["x", "y", "z"]), min_size=4, max_size=4),
)
def test_full_lines_take_the_flat_split_and_give_the_plain_frame(rows, final_break, names):
    width, records = rows
    names = names[:width]
    lines = [",".join(fields) for fields in records]
    final_break = final_break or lines[-1] == ""  # an empty last line needs its line break
    text = "\n".join(lines) + ("\n" if final_break else "")
    module = sys.modules[dp.t.make_split_dataframe.__module__]
    original = module.frame_of_records

    def refused(*args):
        raise AssertionError("the flat split was not taken")

    module.frame_of_records = refused
    try:
        frame = dp.t.make_split_dataframe(",", names)(text)
    finally:
        module.frame_of_records = original
    columns, length = _plain_frame(text, ",", names)
    assert frame.length == length == len(records)
    assert {name: column.values for name, column in frame.columns.items()} == columns
