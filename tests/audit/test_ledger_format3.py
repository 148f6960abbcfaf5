"""Ledger format 3 (gate.tex, Lemma prop:ledger-same): the pairs an ordered list, each entry's
fingerprints and files the canonical lower-case hexadecimal text of a bitset over it.  Every
refusal of the reader (``_bits``) has a test here, matched on its own message, so removing
that check fails its test; and the committed ledger reads the same vettings as its format-2
rewriting (the conversion kept every vetting)."""

import json

import pytest

from certdp.audit.discovery import package_root
from certdp.audit.ledger import _MAX_BITS_TEXT, LEDGER_PATH, LedgerError, entries_of, read_entries

from .conftest import format_2

KEY = "transformations/is_equal/make_is_equal"


@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads((package_root() / LEDGER_PATH).read_text(encoding="utf-8"))


def test_the_committed_ledger_is_format_3_and_reads_as_its_format_2_rewriting(committed):
    assert committed["format"] == 3
    three, two = entries_of(committed), entries_of(format_2(committed))
    assert three.keys() == two.keys() and len(three) > 0
    for key in three:
        assert three[key] == two[key]


def _edited(committed, change) -> dict:
    value = json.loads(json.dumps(committed))
    change(value, value["entries"][KEY])
    return value


def _name_of_a_fingerprint(value, entry) -> int:
    bits = int(entry["fingerprints"], 16)
    return (bits & -bits).bit_length() - 1  # its lowest index


def _twice(value, entry):
    index = _name_of_a_fingerprint(value, entry)
    value["pairs"].append([value["pairs"][index][0], "0" * 64])
    entry["fingerprints"] = format(
        int(entry["fingerprints"], 16) | 1 << (len(value["pairs"]) - 1), "x"
    )


def _twice_files(value, entry):
    bits = int(entry["files"], 16)
    index = (bits & -bits).bit_length() - 1
    value["pairs"].append([value["pairs"][index][0], "1" * 64])
    entry["files"] = format(bits | 1 << (len(value["pairs"]) - 1), "x")


def _beyond(value, entry):
    entry["fingerprints"] = format(int(entry["fingerprints"], 16) | 1 << len(value["pairs"]), "x")


REFUSALS = {
    "bit beyond the table": (_beyond, "which the ledger lacks"),
    "one name twice (fingerprints)": (_twice, "names a fingerprint twice"),
    "one name twice (files)": (_twice_files, "names a fingerprint twice"),
    "integer": (
        lambda v, e: e.update(fingerprints=int(e["fingerprints"], 16)),
        "hexadecimal string",
    ),
    "list": (lambda v, e: e.update(files=[e["files"]]), "hexadecimal string"),
    "null": (lambda v, e: e.update(files=None), "hexadecimal string"),
    "huge": (lambda v, e: e.update(files="1" + "0" * _MAX_BITS_TEXT), "at most"),
    "leading zero": (lambda v, e: e.update(fingerprints="0" + e["fingerprints"]), "canonical"),
    "upper case": (lambda v, e: e.update(fingerprints=e["fingerprints"].upper()), "canonical"),
    "0x prefix": (lambda v, e: e.update(fingerprints="0x" + e["fingerprints"]), "canonical"),
    "plus sign": (lambda v, e: e.update(fingerprints="+" + e["fingerprints"]), "canonical"),
    "minus sign": (lambda v, e: e.update(files="-" + e["files"]), "canonical"),
    "underscore": (lambda v, e: e.update(files=e["files"][:2] + "_" + e["files"][2:]), "canonical"),
    "space": (lambda v, e: e.update(files=" " + e["files"]), "canonical"),
    "not hex": (lambda v, e: e.update(files="g" + e["files"]), "canonical"),
    "empty": (lambda v, e: e.update(files=""), "canonical"),
    "short pair": (
        lambda v, e: v["pairs"].__setitem__(0, ["only a name"]),
        "is not a [name, digest]",
    ),
    "digest not str": (lambda v, e: v["pairs"].__setitem__(0, ["a", 1]), "is not a [name, digest]"),
    "outside": (
        lambda v, e: v["pairs"].__setitem__(0, ["../x.py", "0" * 64]),
        "outside the package",
    ),
}


@pytest.mark.parametrize("name", REFUSALS)
def test_every_refusal_of_format_3_raises_its_ledger_error(committed, name):
    change, message = REFUSALS[name]
    with pytest.raises(LedgerError, match=message.replace("[", r"\[")):
        entries_of(_edited(committed, change))


def test_one_bad_entry_refuses_the_whole_ledger_on_disk(committed, tmp_path):
    folder = tmp_path / "certdp" / LEDGER_PATH.parent
    folder.mkdir(parents=True)
    path = tmp_path / "certdp" / LEDGER_PATH
    path.write_text(json.dumps(committed))
    assert read_entries(tmp_path / "certdp").keys() == entries_of(committed).keys()
    path.write_text(json.dumps(_edited(committed, _beyond)))
    with pytest.raises(LedgerError):
        read_entries(tmp_path / "certdp")


def test_the_edits_are_refused_for_their_bits_alone(committed):
    """The canonical edits above change one entry only: an edit that keeps the bitset's value
    and canonical text (a no-op) reads, so the refusals come from the edited bits."""
    value = _edited(committed, lambda v, e: e.update(files=format(int(e["files"], 16), "x")))
    assert entries_of(value)[KEY] == entries_of(committed)[KEY]
