"""The ledger's format 2 (gate.tex, Lemma prop:ledger-same): each distinct fingerprint pair
stored once, the whole file decoded by ``json.loads`` for the gate and the audit alike.

A ledger that does not decode, or whose value is not of a format certdp reads, makes every
gate call raise, ``contrib`` or not; a valid JSON text of any layout (duplicate members,
escapes, one line) gives the gate and the audit the same vettings; a format-1 ledger is read
as such and ``certdp vet --migrate`` rewrites it in format 2 without changing an entry.
Each runtime case runs the constructor in a fresh process of a vetted copy (``conftest.repo``).
"""

import json
from pathlib import Path

import pytest

from certdp.audit.discovery import constructor_named, constructor_names, discover, package_root
from certdp.audit.ledger import (
    LEDGER_FORMAT,
    Ledger,
    LedgerError,
    entries_of,
    entry_of,
    ledger_entries,
    ledger_text,
    pair_id,
    read_entries,
)

from .conftest import LEDGER, format_2, ledger_json, run, run_script, table_id

KEY = "transformations/is_equal/make_is_equal"

#: Prints the gate's state (or the exception it raised), then what building the constructor
#: did without contrib and with it.
CALL = """
import certdp.prelude as dp
from certdp.audit import status
try:
    print(status.vetting_status("make_is_equal").state)
except Exception as error:
    print(type(error).__name__)
space = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
for contrib in (False, True):
    if contrib:
        dp.enable_features("contrib")
    try:
        dp.t.make_is_equal(*space, 3)
    except Exception as error:
        print(type(error).__name__)
    else:
        print("built")
"""


def runtime(root: Path) -> list[str]:
    return run_script(root, CALL, 3)


def raw(root: Path) -> dict:
    """The ledger of ``root`` in format 2 (the tests below edit format-2 text, which certdp
    still reads; format 3's refusals are in test_ledger_format3.py)."""
    return format_2(json.loads((root / LEDGER).read_text()))


def write(root: Path, value) -> None:
    (root / LEDGER).write_text(value if isinstance(value, str) else json.dumps(value))


def test_vet_writes_the_canonical_format_3_text(repo):
    text = (repo / LEDGER).read_text()
    value = json.loads(text)
    assert value.keys() == {"format", "entries", "pairs"} and value["format"] == LEDGER_FORMAT
    assert LEDGER_FORMAT == 3 and type(value["pairs"]) is list
    entries = read_entries(repo / "src/certdp")
    assert ledger_text(entries) == text  # canonical: the writer's text of what it reads
    used = 0
    for e in value["entries"].values():
        for p in ("fingerprints", "files"):
            table, digits = e[p].split(":")
            assert table == table_id(value["pairs"])  # the identity of the list written
            assert format(int(digits, 16), "x") == digits  # canonical hexadecimal
            used |= int(digits, 16)
    assert used == (1 << len(value["pairs"])) - 1  # only the pairs some entry uses
    assert len(set(map(tuple, value["pairs"]))) == len(value["pairs"])  # each once
    # the independent decoder of conftest reads the same vettings as certdp
    assert ledger_json(repo)[KEY]["fingerprints"] == entries[KEY].fingerprints
    assert ledger_json(repo)[KEY]["files"] == entries[KEY].files


def test_a_format_2_ledger_is_still_read_and_rewritten_in_format_3(repo):
    before = read_entries(repo / "src/certdp")
    value = raw(repo)
    assert value["format"] == 2
    write(repo, value)
    assert read_entries(repo / "src/certdp") == before
    for ident, (name, digest) in value["pairs"].items():
        assert ident == pair_id(name, digest)
    assert runtime(repo) == ["up to date", "built", "built"]
    migrated = run(repo, "vet", "--migrate")
    assert migrated.returncode == 0, migrated.stderr
    assert json.loads((repo / LEDGER).read_text())["format"] == 3
    assert read_entries(repo / "src/certdp") == before


def test_the_committed_ledger_reads_back_the_same_through_the_writer(tmp_path):
    """Whatever the committed ledger's format, writing what it reads in format 2 reads back
    the same vettings, and shares each repeated pair."""
    entries = read_entries(package_root())
    assert entries
    text = ledger_text(entries)
    folder = tmp_path / "certdp" / "proofs"
    folder.mkdir(parents=True)
    (folder / "vetting-ledger.json").write_text(text)
    assert read_entries(tmp_path / "certdp") == entries
    references = sum(len(v.fingerprints) + len(v.files) for v in entries.values())
    assert len(json.loads(text)["pairs"]) < references


def test_an_unchanged_format_3_ledger_runs_the_constructor(repo):
    assert runtime(repo) == ["up to date", "built", "built"]


@pytest.mark.parametrize(
    "text, error",
    [
        ("", "LedgerError"),  # not JSON: the decoder's error, typed
        ("[]", "LedgerError"),
        ("null", "LedgerError"),
        ('{"format": 3, "entries": {}, "pairs": {}}', "LedgerError"),
        ('{"format": 2.0, "entries": {}, "pairs": {}}', "LedgerError"),
        ('{"format": true, "entries": {}, "pairs": {}}', "LedgerError"),
        ('{"format": 2, "entries": [], "pairs": {}}', "LedgerError"),
        ('{"format": 2, "entries": {}, "pairs": []}', "LedgerError"),
        ('{"format": 2, "entries": {}, "pairs": {}, "extra": 1}', "LedgerError"),
        ('{"format": 4, "entries": {}, "pairs": []}', "LedgerError"),
        ('{"format": 3, "entries": {}, "pairs": [], "extra": 1}', "LedgerError"),
        ('{"format": 3, "entries": [], "pairs": []}', "LedgerError"),
        ('{"format": 2, "entries": {}}', "LedgerError"),
    ],
    ids=repr,
)
def test_a_ledger_of_no_format_makes_every_gate_call_raise_contrib_or_not(repo, text, error):
    write(repo, text)
    assert runtime(repo) == [error, error, error]


def test_a_truncated_or_conflicted_ledger_makes_every_gate_call_raise(repo):
    text = (repo / LEDGER).read_text()
    write(repo, text[: len(text) // 2])
    assert runtime(repo) == ["LedgerError"] * 3  # typed: the decoder's error, wrapped
    lines = text.split("\n")
    conflicted = "\n".join(lines[:3] + ["<<<<<<< ours"] + lines[3:6] + ["======="] + lines[3:])
    write(repo, conflicted)
    assert runtime(repo) == ["LedgerError"] * 3
    write(repo, text + "trailing text\n")
    assert runtime(repo) == ["LedgerError"] * 3


def _entry_edit(repo, change) -> None:
    value = raw(repo)
    change(value, value["entries"][KEY])
    write(repo, value)


@pytest.mark.parametrize(
    "change",
    [
        lambda v, e: e.update(fingerprints=e["fingerprints"] + " 000000000000"),  # dangling
        lambda v, e: e.update(fingerprints=e["fingerprints"].replace(" ", "  ", 1)),
        lambda v, e: e.update(files=e["files"].split()),  # a list, not a string
        lambda v, e: v["pairs"].update({e["files"].split()[0]: ["only a name"]}),
        lambda v, e: v["pairs"].update({e["files"].split()[0]: ["a", 1]}),
        lambda v, e: e.update(fingerprints=e["fingerprints"] + " " + e["fingerprints"].split()[0]),
    ],
    ids=["dangling id", "double space", "list", "short pair", "digest not str", "name twice"],
)
def test_a_malformed_entry_makes_its_gate_calls_raise_a_ledger_error(repo, change):
    _entry_edit(repo, change)
    assert runtime(repo) == ["LedgerError"] * 3
    with pytest.raises(LedgerError):
        read_entries(repo / "src/certdp")


def test_a_duplicate_member_is_read_alike_by_gate_and_audit(repo):
    """Referee counterexample to a textual one-entry decoding: a key spelled twice (the second
    time with an escape) in valid JSON.  json.loads alone keeps the last member; the gate
    and the audit decode the whole text with ``ledger_value``, which refuses an object
    naming a member twice, so both refuse the ledger, typed."""
    value = raw(repo)
    good = json.dumps(value["entries"][KEY])
    bad = dict(value["entries"][KEY])
    stale = pair_id("transformations/is_equal/make_is_equal.py#constructor", "0" * 64)
    value["pairs"][stale] = ["transformations/is_equal/make_is_equal.py#constructor", "0" * 64]
    bad["fingerprints"] = " ".join(
        stale if value["pairs"][i][0].endswith("#constructor") else i
        for i in bad["fingerprints"].split()
    )
    escaped = json.dumps(KEY).replace("t", "\\u0074", 1)
    body = json.dumps(value["entries"])[1:-1]
    entries = "{" + body + f", {json.dumps(KEY)}: {good}, {escaped}: {json.dumps(bad)}" + "}"
    text = '{"format": 2, "pairs": ' + json.dumps(value["pairs"]) + ', "entries": ' + entries + "}"
    write(repo, text)
    assert json.loads(text)["entries"][KEY] == bad
    assert runtime(repo) == ["LedgerError"] * 3
    with pytest.raises(LedgerError, match="twice in one object"):
        read_entries(repo / "src/certdp")  # the audit's reader


def test_any_layout_of_the_same_value_reads_the_same(repo):
    value = raw(repo)
    before = read_entries(repo / "src/certdp")
    write(repo, json.dumps(value, ensure_ascii=True, separators=(",", ":")))
    assert read_entries(repo / "src/certdp") == before
    assert runtime(repo) == ["up to date", "built", "built"]


def test_a_format_1_ledger_is_read_as_such_and_migrated_unchanged(repo):
    before = read_entries(repo / "src/certdp")
    write(repo, json.dumps(ledger_json(repo), indent=2, sort_keys=True))
    assert "format" not in raw(repo)
    assert read_entries(repo / "src/certdp") == before
    assert runtime(repo) == ["up to date", "built", "built"]
    migrated = run(repo, "vet", "--migrate")
    assert migrated.returncode == 0, migrated.stderr
    assert json.loads((repo / LEDGER).read_text())["format"] == LEDGER_FORMAT == 3
    assert read_entries(repo / "src/certdp") == before
    assert runtime(repo) == ["up to date", "built", "built"]
    assert run(repo, "vet", "--migrate", "make_is_equal").returncode != 0  # no NAME with it


def test_entry_of_reads_one_entry_and_ledger_entries_checks_the_shape():
    pairs = {"a": ["x.py#r", "1"], "b": ["lemma:x.tex", "2"]}
    value = {"format": 2, "entries": {"k": {"fingerprints": "a b", "files": "",
                                             "proof": "p", "commit": "c", "reviewer": "r"}},
             "pairs": pairs}  # fmt: skip
    vetting = entry_of(value, "k")
    assert vetting.fingerprints == {"x.py#r": "1", "lemma:x.tex": "2"} and vetting.files == {}
    assert entry_of(value, "other") is None
    assert ledger_entries({"k": {}}) == ({"k": {}}, None)  # format 1
    with pytest.raises(LedgerError):
        ledger_entries({"format": 1, "k": {}})


def test_the_named_folder_is_the_one_discover_keeps(tmp_path):
    package = package_root().resolve()
    names = constructor_names(package)
    by_name = {c.name: c for c in discover(package)}
    for name in sorted(by_name) + ["make_nothing", "binary_search"]:
        assert constructor_named(package, name, names) == by_name.get(name)
    # the same name in several folders: the greatest key, as the dictionary keeps
    root = (tmp_path / "certdp").resolve()
    for folder in ("transformations/x", "transformations/x/y", "transformations/x-y",
                   "measurements/a", "transformations/_hidden"):  # fmt: skip
        (root / folder).mkdir(parents=True)
        (root / folder / "make_x.py").write_text("")
    names = constructor_names(root)
    kept = {c.name: c for c in discover(root)}["make_x"]
    assert constructor_named(root, "make_x", names) == kept
    assert kept.key == "transformations/x/y/make_x"
    assert len([c for c in discover(root) if c.name == "make_x"]) == 4  # _hidden not entered


def test_the_shadowing_stat_answers_as_pathlib(tmp_path):
    from stat import S_ISDIR, S_ISLNK, S_ISREG

    from certdp.audit.shadowing import is_a

    (tmp_path / "file").write_text("")
    (tmp_path / "folder").mkdir()
    (tmp_path / "broken").symlink_to(tmp_path / "missing")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "to-file").symlink_to(tmp_path / "file")
    paths = ["file", "folder", "broken", "loop", "to-file", "missing", "file/below", "nul\0"]
    for name in paths:
        path = tmp_path / name
        assert is_a(str(path), S_ISREG) == path.is_file(), name
        assert is_a(str(path), S_ISDIR) == path.is_dir(), name
        assert is_a(str(path), S_ISLNK, follow=False) == path.is_symlink(), name


def test_a_ledger_write_is_atomic_and_leaves_no_temporary_file(tmp_path):
    folder = tmp_path / "certdp" / "proofs"
    folder.mkdir(parents=True)
    (folder / "vetting-ledger.json").write_text("{}\n")
    ledger = Ledger(tmp_path / "certdp")
    ledger.entries = read_entries(package_root())
    ledger.write()
    assert [p.name for p in folder.iterdir()] == ["vetting-ledger.json"]
    assert read_entries(tmp_path / "certdp") == ledger.entries


@pytest.mark.parametrize(
    "name", ["src/certdp//etc/passwd.py#r", "lemma:src/certdp//etc/hostname.tex"]
)
def test_a_pair_name_made_absolute_by_the_relative_rewrite_is_refused(name):
    """'src/certdp//etc/x' passes a test of the stored name (no '..', no leading '/') but is
    rewritten to '/etc/x'; the reader checks the rewritten names too (referee, session 11)."""
    value = {
        "format": 2,
        "entries": {KEY: {"fingerprints": "aaaaaaaaaaaa", "proof": "p", "commit": "c",
                          "reviewer": "r"}},
        "pairs": {"aaaaaaaaaaaa": [name, "d"]},
    }  # fmt: skip
    with pytest.raises(LedgerError, match="outside the package"):
        entries_of(value)
