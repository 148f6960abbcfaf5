"""The ledger's text is decoded by ``ledger_value`` (gate.tex, Lemma prop:ledger-same, item
ledger-refuse): anything that is not a ledger's JSON raises ``LedgerError`` (a ``DPError``),
for the gate, the audit and ``certdp vet`` alike -- a text that is not JSON (a conflicted
merge), one nested too deep for the decoder, an integer too long for ``int``, an object that
names a member twice (``json.loads`` alone would keep the last), and an entry whose string
members are not strings."""

import json
import sys

import pytest

from certdp.audit.discovery import package_root
from certdp.audit.ledger import (
    LEDGER_PATH,
    Ledger,
    LedgerError,
    entries_of,
    ledger_value,
    read_ledger,
)

KEY = "transformations/is_equal/make_is_equal"


@pytest.fixture(scope="module")
def committed_text() -> str:
    return (package_root() / LEDGER_PATH).read_text(encoding="utf-8")


def _on_disk(tmp_path, text: str):
    package = tmp_path / "certdp"
    (package / LEDGER_PATH).parent.mkdir(parents=True)
    (package / LEDGER_PATH).write_text(text, encoding="utf-8")
    return package


def test_the_committed_ledger_decodes_as_json_loads_does(committed_text):
    assert ledger_value(committed_text) == json.loads(committed_text)
    assert ledger_value(None) == {}


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"a": 1,\n<<<<<<< ours\n}', "not JSON .*JSONDecodeError.*conflict markers"),
        ("[" * 200_000 + "]" * 200_000, "within Python's recursion limit"),
        ('{"format": ' + "9" * 5000 + "}", "an integer of 5000 characters"),
        ('{"format": -' + "9" * 18 + "}", "an integer of 19 characters"),
        ('{"a": 1, "a": 2}', "names the member 'a' twice"),
        ('{"entries": {"x": {"b": 1, "c": 2, "b": 3}}}', "names the member 'b' twice"),
    ],
    ids=[
        "conflict-markers",
        "too-deep",
        "long-integer",
        "19-characters",
        "twice-top",
        "twice-nested",
    ],
)
def test_text_that_is_not_a_ledgers_json_is_refused_typed(tmp_path, text, message):
    with pytest.raises(LedgerError, match=message):
        ledger_value(text)
    package = _on_disk(tmp_path, text)
    with pytest.raises(LedgerError, match=message):  # the gate's reader
        read_ledger(package)
    with pytest.raises(LedgerError, match=message):  # the audit's and certdp vet's
        Ledger(package)


def test_a_hand_merged_entry_naming_a_member_twice_is_refused(committed_text, tmp_path):
    """A line-wise merge that keeps both sides' ``reviewer`` lines of one entry: the
    decoder alone would keep the second; the ledger is refused instead."""
    lines = committed_text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.strip().startswith('"reviewer"'))
    doubled = (
        lines[: at + 1]
        + [lines[at].replace('"reviewer": "', '"reviewer": "other ')]
        + lines[at + 1 :]
    )
    text = "".join(doubled)
    assert json.loads(text)  # valid JSON: the decoder alone accepts it
    with pytest.raises(LedgerError, match="names the member 'reviewer' twice"):
        read_ledger(_on_disk(tmp_path, text))


@pytest.mark.parametrize("member", ["proof", "commit", "reviewer", "date", "reviewed", "seal"])
@pytest.mark.parametrize("value", [None, 7, ["x"], {"x": "y"}, True])
def test_a_string_member_of_another_type_is_refused(committed_text, member, value):
    raw = json.loads(committed_text)
    raw["entries"][KEY][member] = value
    with pytest.raises(LedgerError, match=f"its member {member} must be a string"):
        entries_of(raw)


def test_string_members_are_checked_in_format_1_too():
    entry = {"fingerprints": {}, "proof": "p", "commit": "c", "reviewer": 5}
    with pytest.raises(LedgerError, match="its member reviewer must be a string"):
        entries_of({KEY: entry})
    entry["reviewer"] = "r"
    assert entries_of({KEY: entry})[KEY].reviewer == "r"


@pytest.mark.parametrize("limit", [0, 640, 100_000])
def test_the_refusal_of_a_long_integer_does_not_depend_on_ints_digit_limit(limit):
    """refnits F1: ``int``'s digit limit is an interpreter setting; the ledger's bound on an
    integer's text is the reader's own, so one text is refused at every setting."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(limit)
    try:
        with pytest.raises(LedgerError, match="an integer of 5000 characters"):
            ledger_value('{"format": ' + "9" * 5000 + "}")
        assert ledger_value('{"format": ' + "9" * 18 + "}") == {"format": int("9" * 18)}
    finally:
        sys.set_int_max_str_digits(before)
