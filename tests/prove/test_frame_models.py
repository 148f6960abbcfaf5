"""The dataframe steps' SMT models are bound to the code: unsound edits of the code (a map below
the identity, a function that is not the row map of a fixed row function, a wrong default, an
inverted test) are refuted by ``certdp prove``, and the unedited code is proved on the same
instances."""

import pytest

T = "transformations/"
CREATE = T + "create_dataframe/make_create_dataframe.py"
SPLIT = T + "split_dataframe/make_split_dataframe.py"
SELECT = T + "select_column/make_select_column.py"
CAST = T + "df_cast_default/make_df_cast_default.py"
EQUAL = T + "df_is_equal/make_df_is_equal.py"
SUBSET = T + "subset_by/make_subset_by.py"
HALF = ("return d_in  # label", "return d_in // 2  # label")


def _prove(tmp_path, name, edits, select):
    from .edited import prove_edited

    return prove_edited(tmp_path, name, edits, select=select)


@pytest.mark.parametrize(
    "name, edits",
    [
        ("make_create_dataframe", {CREATE: [HALF]}),
        ("make_create_dataframe", {CREATE: [('*[""] * (width', '*["?"] * (width')]}),
        ("make_create_dataframe", {CREATE: [("return DataFrame(K, columns, len(rows))", "return DataFrame(K, {}, len(rows) // 2)")]}),
        ("make_split_dataframe", {SPLIT: [HALF]}),
        ("make_split_dataframe", {SPLIT: [("for line in text_lines(text)", "for line in text_lines(text)[1:]")]}),
        ("make_select_column", {SELECT: [HALF]}),
        ("make_select_column", {SELECT: [('"key").values)', '"key").values)[1:]')]}),
        ("make_df_cast_default", {CAST: [HALF]}),
        ("make_df_cast_default", {CAST: [("0.0 if TOA.is_float else 0)", "0.0 if TOA.is_float else 1)")]}),
        ("make_df_is_equal", {EQUAL: [HALF]}),
        ("make_df_is_equal", {EQUAL: [("entry == converted", "entry != converted")]}),
        ("make_subset_by", {SUBSET: [HALF]}),
        ("make_subset_by", {SUBSET: [("if flag]", "if not flag]")]}),
    ],
)  # fmt: skip
def test_unsound_edits_are_refuted(tmp_path, name, edits):
    summary = _prove(tmp_path, name, edits, "d_in=1")
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize(
    "name",
    ["make_create_dataframe", "make_split_dataframe", "make_select_column",
     "make_df_cast_default", "make_df_is_equal", "make_subset_by"],
)  # fmt: skip
def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path, name):
    summary = _prove(tmp_path, name, {}, "d_in=1")
    assert summary["status"] == "proved", summary
