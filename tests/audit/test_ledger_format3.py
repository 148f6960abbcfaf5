"""Ledger format 3 (gate.tex, Lemma prop:ledger-same): the pairs an ordered list, each entry's
fingerprints and files the list's identity, ":" and the canonical lower-case hexadecimal
text of a bitset over it.  Every
refusal of the reader (``_bits``, the table's identity included) has a test here, matched on its own message, so removing
that check fails its test; and the committed ledger reads the same vettings as its format-2
rewriting (the conversion kept every vetting)."""

import json

import pytest

from certdp.audit.ledger import (
    _MAX_BITS_TEXT,
    LEDGER_PATH,
    LedgerError,
    Vetting,
    _table_id,
    entries_of,
    ledger_text,
    read_entries,
)

from .conftest import format_2, table_id

KEY = "transformations/is_equal/make_is_equal"


@pytest.fixture(scope="module")
def committed(committed_text) -> dict:
    return json.loads(committed_text)


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


def _digits(entry, member) -> str:
    """The hexadecimal bitset of ``entry[member]``, after the table's identity and ":"."""
    return entry[member].split(":")[1]


def _set(entry, member, digits) -> None:
    entry[member] = entry[member].split(":")[0] + ":" + digits


def _retag(value) -> None:
    """Every bitset re-labelled with the identity of the (edited) list, as the writer would."""
    for entry in value["entries"].values():
        for member in ("fingerprints", "files"):
            entry[member] = table_id(value["pairs"]) + ":" + _digits(entry, member)


def _twice(value, entry, member="fingerprints", digest="0" * 64):
    bits = int(_digits(entry, member), 16)
    index = (bits & -bits).bit_length() - 1  # its lowest index
    value["pairs"].append([value["pairs"][index][0], digest])
    _set(entry, member, format(bits | 1 << (len(value["pairs"]) - 1), "x"))
    _retag(value)


def _beyond(value, entry):
    _set(
        entry,
        "fingerprints",
        format(int(_digits(entry, "fingerprints"), 16) | 1 << len(value["pairs"]), "x"),
    )


def _edit_digits(member, edit):
    return lambda v, e: _set(e, member, edit(_digits(e, member)))


def _appended(value, entry):
    """A pair appended to the list (no index moves), the bitsets left as they were."""
    value["pairs"].append(["appended.py#a", "0" * 64])


ANOTHER = "written against another table of pairs"

REFUSALS = {
    "bit beyond the table": (_beyond, "which the ledger lacks"),
    "one name twice (fingerprints)": (_twice, "names a fingerprint twice"),
    "one name twice (files)": (
        lambda v, e: _twice(v, e, "files", "1" * 64),
        "names a fingerprint twice",
    ),
    "integer": (
        lambda v, e: e.update(fingerprints=int(_digits(e, "fingerprints"), 16)),
        "must be a string",
    ),
    "list": (lambda v, e: e.update(files=[e["files"]]), "must be a string"),
    "null": (lambda v, e: e.update(files=None), "must be a string"),
    "huge": (lambda v, e: _set(e, "files", "1" + "0" * _MAX_BITS_TEXT), "at most"),
    "no table identity": (lambda v, e: e.update(files=_digits(e, "files")), ANOTHER),
    "another table's identity": (lambda v, e: e.update(files="0" * 16 + ":0"), ANOTHER),
    "upper-case identity": (lambda v, e: e.update(files=e["files"].upper()), ANOTHER),
    "a pair appended, bitsets not rewritten": (_appended, ANOTHER),
    "leading zero": (_edit_digits("fingerprints", lambda d: "0" + d), "canonical"),
    "upper case": (_edit_digits("fingerprints", str.upper), "canonical"),
    "0x prefix": (_edit_digits("fingerprints", lambda d: "0x" + d), "canonical"),
    "plus sign": (_edit_digits("fingerprints", lambda d: "+" + d), "canonical"),
    "minus sign": (_edit_digits("files", lambda d: "-" + d), "canonical"),
    "underscore": (_edit_digits("files", lambda d: d[:2] + "_" + d[2:]), "canonical"),
    "space": (_edit_digits("files", lambda d: " " + d), "canonical"),
    "not hex": (_edit_digits("files", lambda d: "g" + d), "canonical"),
    "empty": (_edit_digits("files", lambda d: ""), "canonical"),
    "second colon": (_edit_digits("files", lambda d: ":" + d), "canonical"),
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
    value = _edited(committed, _edit_digits("files", lambda d: format(int(d, 16), "x")))
    assert entries_of(value)[KEY] == entries_of(committed)[KEY]
    # and re-labelling every bitset with the identity the list already has changes nothing
    assert entries_of(_edited(committed, lambda v, e: _retag(v))) == entries_of(committed)


def test_the_committed_ledger_names_its_own_table(committed_text):
    """Every bitset of the committed ledger starts with the identity of its list, computed
    here independently (conftest.table_id), and the absent files member reads as none."""
    value = json.loads(committed_text)
    identity = table_id(value["pairs"])
    assert {
        e[m].split(":")[0] for e in value["entries"].values() for m in ("fingerprints", "files")
    } == {identity}
    del value["entries"][KEY]["files"]
    assert entries_of(value)[KEY].files == {}


def test_the_identity_tells_apart_lists_whose_strings_join_alike():
    """Two lists whose strings joined by NUL give one text (a string holding a NUL) have
    different identities (the JSON form is taken), as do a non-ASCII list and its escapes;
    each identity is the one computed independently (conftest.table_id)."""
    with_nul, plain = [["a\0b", "c\0d"]], [["a", "b"], ["c", "d"]]
    assert _table_id(with_nul) != _table_id(plain)
    assert _table_id(with_nul) == table_id(with_nul) and _table_id(plain) == table_id(plain)
    accented, escaped = [["é.py#e", "0" * 64]], [["\\u00e9.py#e", "0" * 64]]
    assert _table_id(accented) != _table_id(escaped) == table_id(escaped)
    assert _table_id([["\ud800.py#x", "0"]]) == table_id([["\ud800.py#x", "0"]])  # no raise


@pytest.mark.parametrize("name", ["é.py#e", "a\0b.py#x", "\ud800.py#x"])
def test_the_writer_reads_back_a_list_of_any_strings(name):
    entries = {"x/make_x": Vetting({name: "0" * 64, "x.py#x": "1" * 64}, "p", "c", "r")}
    assert dict(entries_of(json.loads(ledger_text(entries)))) == entries


@pytest.mark.parametrize("digits", ["3", "5", "6"])
def test_one_name_twice_is_refused_in_the_writers_sorted_order(digits):
    """The writer's order (sorted, one name's pairs adjacent) takes the shift branch of
    ``_run_masks``; two set bits of one name at distance 1 or 2 are refused (refledger3 F3:
    the tests above append a pair, so their lists are unsorted)."""
    pairs = [["a.py#a", "1" * 64], ["a.py#a", "2" * 64], ["a.py#a", "3" * 64], ["b.py#b", "0"]]
    entry = {"proof": "p", "commit": "c", "reviewer": "r", "files": table_id(pairs) + ":0"}
    value = {"format": 3, "pairs": pairs, "entries": {"a/make_a": entry}}
    entry["fingerprints"] = table_id(pairs) + ":9"  # bits 0 and 3: two names, once each
    assert entries_of(value)["a/make_a"].fingerprints == {"a.py#a": "1" * 64, "b.py#b": "0"}
    entry["fingerprints"] = table_id(pairs) + ":" + digits
    with pytest.raises(LedgerError, match="names a fingerprint twice"):
        entries_of(value)


def test_the_check_of_one_name_twice_agrees_with_listing_the_names_in_any_order():
    """_named_twice (masks in the writer's order, names otherwise) answers exactly whether two
    set bits name one name, on random tables sorted and unsorted (refledger3 F2: the check no
    longer builds one mask per distance)."""
    import random

    from certdp.audit.ledger import _named_twice, _run_masks

    rng = random.Random(18)
    for trial in range(1500):
        size = rng.randint(1, 40)
        names = [rng.choice("abcdefg") for _ in range(size)]
        if trial % 2:
            names.sort()
        masks = _run_masks({index: (name, "d") for index, name in enumerate(names)})
        if trial % 2:
            assert type(masks) is tuple  # the writer's order: masks
        for _ in range(10):
            bits = rng.getrandbits(size)
            listed = [names[i] for i in range(size) if bits >> i & 1]
            assert _named_twice(bits, masks) == (len(set(listed)) != len(listed))


def test_a_long_run_of_one_name_needs_only_logarithmically_many_masks():
    from certdp.audit.ledger import _run_masks

    masks = _run_masks({index: ("same", format(index, "x")) for index in range(5000)})
    assert type(masks) is tuple and len(masks) == 13  # 2**12 < 5000 <= 2**13
