"""make_split_records: OpenDP 0.16's fields on hostile lines, bad input, contract and runtime
enforcement."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import DPError, FailedFunctionError, MakeTransformationError


@pytest.fixture(autouse=True)
def _contrib():
    # A new constructor is not vetted yet: the gate asks for "contrib" until the lead vets it.
    dp.enable_features("contrib")


#: OpenDP 0.16.0's fields (read back through make_create_dataframe and make_select_column, which
#: pad missing fields with "": OpenDP cannot return a Vec<Vec<String>> to Python), separator ",".
OPENDP_FIELDS = [
    ("a,b", ["a", "b"]),
    (" a , b ", ["a", "b"]),
    ("a,,b", ["a", "", "b"]),
    ("", [""]),
    (",", ["", ""]),
    ('"a,b",c', ['"a', 'b"', "c"]),
    ('a, "b"', ["a", '"b"']),
    ("a\tb", ["a\tb"]),
    ("a,b,c,d,e", ["a", "b", "c", "d", "e"]),
    ("a ,b\n", ["a", "b"]),
    ("\xa0x\xa0,y", ["x", "y"]),
    ("x\u3000,y", ["x", "y"]),
    # Rust trims Unicode White_Space; Python's bare strip() would also remove U+001C..U+001F.
    ("\x1ca\x1c,\x1c", ["\x1ca\x1c", "\x1c"]),
    ("\x1fa\x1f,\x1f", ["\x1fa\x1f", "\x1f"]),
    ("\u200ba\u200b,\u200b", ["\u200ba\u200b", "\u200b"]),
    ("\u180ea\u180e,\u180e", ["\u180ea\u180e", "\u180e"]),
    ("\ufeffa\ufeff,\ufeff", ["\ufeffa\ufeff", "\ufeff"]),
    ("\x85a\x85,\x85", ["a", ""]),
    ("\u2028a\u2028,\u2028", ["a", ""]),
    ("\u1680a\u1680,\u1680", ["a", ""]),
    ("\u202fa\u202f,\u202f", ["a", ""]),
    ("\u205fa\u205f,\u205f", ["a", ""]),
    ("\x0ba\x0b,\x0b", ["a", ""]),
]


@pytest.mark.parametrize("line, fields", OPENDP_FIELDS)
def test_fields_as_in_opendp(line, fields):
    assert dp.t.make_split_records(",")([line]) == [fields]


#: OpenDP 0.16.0 on ["a, b ab c", "x y", ""] with other separators (empty: Rust's split("")).
OPENDP_SEPARATORS = [
    ("", [["", "a", ",", "", "b", "", "a", "b", "", "c", ""], ["", "x", "", "y", ""], ["", ""]]),
    (" ", [["a,", "b", "ab", "c"], ["x", "y"], [""]]),
    (", ", [["a", "b ab c"], ["x y"], [""]]),
    ("ab", [["a, b", "c"], ["x y"], [""]]),
    ("\n", [["a, b ab c"], ["x y"], [""]]),
]


#: OpenDP 0.16.0 with overlapping and non-ASCII separators: occurrences are found from the left
#: without overlap, and characters are compared as code points (no Unicode normalisation).
OPENDP_OVERLAPS = [
    ("aa", ["aaa", "aaaa", "baab", "aaaaa"], [["", "a"], ["", "", ""], ["b", "b"], ["", "", "a"]]),
    ("\u00e9", ["x\u00e9y", "xe\u0301y"], [["x", "y"], ["xe\u0301y"]]),
]


@pytest.mark.parametrize("separator, lines, rows", OPENDP_OVERLAPS)
def test_overlapping_and_non_ascii_separators_as_in_opendp(separator, lines, rows):
    assert dp.t.make_split_records(separator)(lines) == rows


@pytest.mark.parametrize("separator, rows", OPENDP_SEPARATORS)
def test_separators_as_in_opendp(separator, rows):
    assert dp.t.make_split_records(separator)(["a, b ab c", "x y", ""]) == rows


def _opendp_padded(odp, separator, lines, width):
    """OpenDP's fields of ``lines``, padded with "" to ``width`` (its only way back to Python)."""
    frame = odp.t.make_split_records(separator) >> odp.t.make_create_dataframe(list(range(width)))
    columns = [(frame >> odp.t.make_select_column(k, str))(lines) for k in range(width)]
    return [list(row) for row in zip(*columns)]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_same_outputs_as_opendp():
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    lines = [line for line, _ in OPENDP_FIELDS]
    for separator in (",", " ", ", ", "ab", ""):
        ours = dp.t.make_split_records(separator)(lines)
        width = max(len(fields) for fields in ours)
        padded = [fields + [""] * (width - len(fields)) for fields in ours]
        assert padded == _opendp_padded(odp, separator, lines, width)


def test_spaces_and_metrics_as_in_opendp():
    t = dp.t.make_split_records(",")
    assert t.input_domain == dp.vector_domain(dp.atom_domain(T="String"))
    assert t.output_domain == dp.vector_domain(dp.vector_domain(dp.atom_domain(T="String")))
    assert t.input_metric == t.output_metric == dp.symmetric_distance()
    assert [t.map(d) for d in (0, 1, 7)] == [0, 1, 7]


def test_hostile_lines_are_split_by_the_same_rule():
    t = dp.t.make_split_records(",")
    huge = "y" * 10**6
    assert t([huge + "," + huge]) == [[huge, huge]]
    assert t([",,,,"]) == [["", "", "", "", ""]]
    assert t(["nan, inf ,-inf,"]) == [["nan", "inf", "-inf", ""]]
    assert t(["a\x00b,c"]) == [["a\x00b", "c"]]
    assert t(np.array(["1,2", "3"])) == [["1", "2"], ["3"]]
    assert t(()) == []


@given(
    fields=st.lists(st.text(st.characters(blacklist_characters=","), max_size=4), min_size=1),
)
def test_joined_fields_are_split_back_trimmed(fields):
    from certdp.transformations.split_records.make_split_records import RUST_WHITESPACE

    out = dp.t.make_split_records(",")([",".join(fields)])
    assert out == [[field.strip(RUST_WHITESPACE) for field in fields]]


@pytest.mark.parametrize("separator", [1, ["a"], 1.5, True])
def test_non_str_separator_is_refused(separator):
    # OpenDP accepts bytes, and crashes the interpreter on an integer.
    with pytest.raises(MakeTransformationError, match="must be a str") as error:
        dp.t.make_split_records(separator)
    assert error.value.parameter == "separator" and isinstance(error.value, TypeError)


def test_bytes_separator_is_refused_at_the_boundary():
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_split_records(b",")
    assert error.value.parameter == "separator"


def test_bytes_separator_error_names_the_rule():
    # referee-ingest counterexample 5: the message said "bytes is not a number".
    with pytest.raises(DPError) as error:
        dp.t.make_split_records(b",")
    assert isinstance(error.value, MakeTransformationError)
    assert "number" not in str(error.value)
    assert "str" in str(error.value)


def test_none_separator_splits_at_comma_as_opendp():
    lines = ["a,b;c", " x , y\tz ", "", '"q,r"']
    assert dp.t.make_split_records(None)(lines) == dp.t.make_split_records(",")(lines)
    assert dp.t.make_split_records(None)(["a,b"]) == [["a", "b"]]
    assert dp.t.make_split_records(None).map(3) == 3


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_none_separator_is_opendps_comma():
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    lines = ["a,b;c", " x , y\tz ", ",,"]
    assert _opendp_padded(odp, None, lines, 3) == _opendp_padded(odp, ",", lines, 3)
    assert _opendp_padded(odp, None, lines, 3) == [
        fields + [""] * (3 - len(fields)) for fields in dp.t.make_split_records(None)(lines)
    ]


def test_nul_in_separator_is_refused():
    # OpenDP cuts the separator at the NUL (a C string): "a\x00b" would split at "a".
    with pytest.raises(MakeTransformationError, match="NUL") as error:
        dp.t.make_split_records("a\x00b")
    assert error.value.parameter == "separator"


@pytest.mark.parametrize("bad", ["a,b", b"a,b", [b"a,b"], [1], [None], [["a"]]])
def test_non_string_data_is_refused_by_invoke(bad):
    with pytest.raises(FailedFunctionError):
        dp.t.make_split_records(",")(bad)


def test_split_rows_are_records_of_the_symmetric_distance():
    metric = dp.symmetric_distance()
    assert metric.distance([["a", "b"], ["c"]], [["c"], ["a", "b"]]) == 0
    assert metric.distance([["a", "b"]], [["a"], ["b"]]) == 3


def test_contract_verifies():
    report = contract_of(dp.t.make_split_records).verify()
    assert report.examples > 0 and report.max_tightness == 1


def test_a_map_below_the_identity_is_refuted():
    fixed = dataclasses.replace(
        contract_of(dp.t.make_split_records), arguments=lambda: st.just({"separator": ","})
    )
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    assert dp.t.make_split_records(",")(["a,b"]) == [["a", "b"]]
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_split_records("a\x00")
    assert error.value.condition == "separator-str-without-nul"


def test_the_whitespace_search_finds_exactly_the_trimmed_characters():
    # split_fields skips the stripping when the search finds nothing: it must find every
    # character of RUST_WHITESPACE and no other code point.
    import sys

    from certdp.transformations.split_records.make_split_records import (
        _WHITESPACE_SEARCH,
        RUST_WHITESPACE,
    )

    found = {c for c in map(chr, range(sys.maxunicode + 1)) if _WHITESPACE_SEARCH(c) is not None}
    assert found == set(RUST_WHITESPACE)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_smt_probe_table_is_opendp_fields_except_at_nul():
    """referee-ingest counterexample 6, kept with its assertion for every probe OpenDP reads
    whole: the SMT model's table is certdp's fields, and equals OpenDP 0.16's on every probe
    without NUL; on "a\\x00b" OpenDP cuts the line at the NUL (as the model and proof now say)."""
    opendp = pytest.importorskip("opendp.prelude")
    opendp.enable_features("contrib")
    from certdp.transformations.split_records.smt_model import EXPECTED, PROBES

    K = 9
    for separator in (",", ""):
        theirs = _opendp_padded(opendp, separator, list(PROBES), K)
        for index, line in enumerate(PROBES):
            expected = EXPECTED[separator][index]
            assert dp.t.make_split_records(separator)([line]) == [expected]
            if "\x00" in line:
                cut = dp.t.make_split_records(separator)([line.split("\x00")[0]])[0]
                assert theirs[index] == (cut + [""] * K)[:K] != (expected + [""] * K)[:K]
            else:
                assert theirs[index] == (expected + [""] * K)[:K]
