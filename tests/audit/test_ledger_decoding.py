"""The ledger's text is decoded by ``ledger_value`` (gate.tex, Lemma prop:ledger-same, item
ledger-refuse): anything that is not a ledger's JSON raises ``LedgerError`` (a ``DPError``),
for the gate, the audit and ``certdp vet`` alike -- a text that is not JSON (a conflicted
merge), one nested too deep for the decoder, an integer too long for ``int``, an object that
names a member twice (``json.loads`` alone would keep the last), and an entry whose string
members are not strings."""

import json
import sys

import pytest

from certdp.audit.ledger import (
    LEDGER_PATH,
    Ledger,
    LedgerError,
    entries_of,
    ledger_value,
    read_ledger,
)

KEY = "transformations/is_equal/make_is_equal"


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


#: Bytes that are not UTF-8 text: a byte no UTF-8 text holds first, a sequence cut at the end,
#: and one cut inside a string of the JSON.
NOT_UTF8 = [
    lambda text: b"\xff" + text.encode(),
    lambda text: text.encode() + b"\xe2\x82",
    lambda text: text.encode().replace(b'"reviewer": "', b'"reviewer": "\xc3', 1),
]


@pytest.mark.parametrize("spoil", NOT_UTF8, ids=["first-byte", "cut-at-end", "cut-in-string"])
def test_a_ledger_that_is_not_utf8_is_refused_typed(committed_text, tmp_path, spoil):
    """Bytes that do not decode as UTF-8 raise ``LedgerError`` naming the rule, as a text that
    is not JSON does (an untyped ``UnicodeDecodeError`` left the gate before)."""
    package = tmp_path / "certdp"
    (package / LEDGER_PATH).parent.mkdir(parents=True)
    (package / LEDGER_PATH).write_bytes(spoil(committed_text))
    with pytest.raises(LedgerError, match="the ledger must be UTF-8 text.*UnicodeDecodeError"):
        read_ledger(package)  # the gate's reader
    with pytest.raises(LedgerError, match="the ledger must be UTF-8 text.*UnicodeDecodeError"):
        Ledger(package)  # the audit's and certdp vet's


GATE_CALL = """
import certdp.prelude as dp
space = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
for features in ((), ("contrib",)):
    dp.enable_features(*features)
    try:
        dp.t.make_is_equal(*space, 3)
    except Exception as error:
        print(type(error).__name__, str(error).split(" (")[0])
    else:
        print("built")
"""


def test_the_gate_and_the_audit_refuse_a_ledger_that_is_not_utf8_typed(repo):
    """In a vetted copy, a ledger with a byte no UTF-8 text holds makes the gate raise
    ``LedgerError`` (with and without ``contrib``) and the audit refuse with the rule named,
    where both built or passed before."""
    from .conftest import run, run_script

    assert run_script(repo, GATE_CALL, 2) == ["built", "built"]
    ledger = repo / "src/certdp" / LEDGER_PATH
    ledger.write_bytes(b"\xff" + ledger.read_bytes())
    refused = "LedgerError ledger: the ledger must be UTF-8 text, and is not"
    assert run_script(repo, GATE_CALL, 2) == [refused, refused]
    audited = run(repo, "audit", "make_is_equal")  # raises, as for a text that is not JSON
    assert audited.returncode != 0
    last = audited.stderr.strip().splitlines()[-1]
    assert last.startswith("certdp.audit.ledger.LedgerError: ledger: the ledger must be UTF-8")
