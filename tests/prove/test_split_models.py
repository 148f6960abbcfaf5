"""make_split_lines' and make_split_records' SMT models are bound to the code: unsound edits of
the code (a map below the identity, a function that is not the row map of split_fields, a line
rule that keeps the carriage return) are refuted by ``certdp prove``, and the unedited code is
proved on the same instances."""

import pytest

LINES = "transformations/split_lines/make_split_lines.py"
RECORDS = "transformations/split_records/make_split_records.py"
METRICS = "core/metrics.py"


def _prove(tmp_path, name, edits, select):
    from .edited import prove_edited

    return prove_edited(tmp_path, name, edits, select=select)


@pytest.mark.parametrize(
    "name, edits, select",
    [
        ("make_split_lines", {LINES: [("return d_in  # label", "return d_in // 2  # label")]}, "d_in=1"),
        ("make_split_lines", {LINES: [("return text_lines(text)", "return text_lines(text)[1:]")]}, "d_in=1"),
        ("make_split_lines", {METRICS: [('piece[:-1] if piece.endswith("\\r") else piece', "piece")]}, "d_in=1"),
        ("make_split_records", {"transformations/_rowmap/rowmap.py": [("return d_in  # label", "return max(d_in - 1, 0)  # label")]}, "','"),
        ("make_split_records", {RECORDS: [("piece.strip(RUST_WHITESPACE)", "piece.strip()")]}, "','"),
        ("make_split_records", {RECORDS: [('["", *line, ""]', "list(line)")]}, "''"),
        ("make_split_records", {RECORDS: [('separator = ","', 'separator = ";"')]}, "None"),
    ],
)  # fmt: skip
def test_unsound_edits_are_refuted(tmp_path, name, edits, select):
    summary = _prove(tmp_path, name, edits, select)
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize(
    "name, select",
    [("make_split_lines", "d_in=1"), ("make_split_records", "','"), ("make_split_records", "None")],
)
def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path, name, select):
    summary = _prove(tmp_path, name, {}, select)
    assert summary["status"] == "proved", summary
