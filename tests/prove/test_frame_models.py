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
#: The first statement of make_split_dataframe's function after its lines are computed (on every
#: path: trimmed, untrimmed and flat); an edit of the lines goes before it.
LINES = "width = len(names)"


def _prove(tmp_path, name, edits, select):
    from .edited import prove_edited

    return prove_edited(tmp_path, name, edits, select=select)


@pytest.mark.parametrize(
    "name, edits",
    [
        ("make_create_dataframe", {CREATE: [HALF]}),
        ("make_create_dataframe", {CREATE: [('*[""] * (width', '*["?"] * (width')]}),
        ("make_create_dataframe", {CREATE: [("return DataFrame(K, columns, length)", "return DataFrame(K, {}, length // 2)")]}),
        ("make_split_dataframe", {SPLIT: [HALF]}),
        ("make_split_dataframe", {SPLIT: [(LINES, "lines = lines[1:]; " + LINES)]}),
        ("make_select_column", {SELECT: [HALF]}),
        ("make_select_column", {SELECT: [('"key").values)', '"key").values)[1:]')]}),
        ("make_df_cast_default", {CAST: [HALF]}),
        ("make_df_cast_default", {CAST: [("0.0 if TOA.is_float else 0)", "0.0 if TOA.is_float else 1)")]}),
        ("make_df_is_equal", {EQUAL: [HALF]}),
        ("make_df_is_equal", {EQUAL: [("entry == converted", "entry != converted")]}),
        ("make_subset_by", {SUBSET: [HALF]}),
        ("make_subset_by", {SUBSET: [("if flag]", "if not flag]")]}),
        # referee-frames: edits that double the output when a value "q" appears (caught by the
        # generated probes: a record alone gives two rows)
        ("make_subset_by", {SUBSET: [("kept = [i for i, flag in enumerate(flags) if flag]", "kept = [i for i, flag in enumerate(flags) if flag]; kept = kept * 2 if 'q' in frame.columns['a'].values else kept")]}),
        ("make_select_column", {SELECT: [('return list(schema_column(frame, key, TOA, "key").values)', 'return (lambda v: v + v if "q" in v else v)(list(schema_column(frame, key, TOA, "key").values))')]}),
        # outputs that depend on other records (the dataset's size, a value in another row)
        ("make_df_cast_default", {CAST: [("tuple(cast(value) for value in column.values)", "tuple(cast(value) if len(column.values) < 50 else cast('') for value in column.values)")]}),
        ("make_df_is_equal", {EQUAL: [("bool(entry == converted)", "bool(entry == converted) != ('q' in frame.columns['a'].values)")]}),
        ("make_split_dataframe", {SPLIT: [(LINES, "lines = (lambda ls: ls + ls[:1] if 'q,q' in ls and '' in ls else ls)(lines); " + LINES)]}),
        ("make_subset_by", {SUBSET: [("return DataFrame(frame.K, columns, len(kept))", "return DataFrame(frame.K, columns, len(kept)) if not (len(flags) == 2 and 'q' in frame.columns['a'].values) else DataFrame(frame.K, {}, 0)")]}),
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
