"""The referee's findings against ledger format 2 (ref-gate2), kept as regression tests.

- ``certdp vet --migrate`` and ``Ledger.record`` replace the ledger only after the new text
  has read back as the same vettings (written to a temporary file, read, then ``os.replace``).
- The writer refuses, naming the entry, what its reader would not read back equal (a
  numeric digest of a format-1 entry, a key outside the package); so
  ``read_entries(ledger_text(e)) == e`` for every ``e`` it writes.
- The gate and the audit read the ledger with one function that converts every entry: an
  entry naming a missing pair makes both refuse (gate.tex, Lemma prop:ledger-same).
- A fingerprint key whose path is absolute or climbs out of the package (``..``) makes the
  ledger unreadable (``LedgerError``), so the gate never stats a path outside the package.
- ``Ledger.record`` keeps every pair of the file it rewrites (only ``--migrate`` drops
  unused ones).  In format 3 a new pair moves the indices after it, and every bitset starts
  with the identity of the list it was written against: two vet-written ledgers whose lists
  both changed conflict in git (conflict markers, which no reader accepts), and a clean merge
  holding a bitset written against another list than the merged one is refused, typed; the
  resolution is one side's ledger with the other side's vettings recorded again.

No test writes into the worktree: ledgers live in a temporary package folder, and the gate
reads them through a monkeypatched ``status.read_ledger`` (the real one, of that folder).
"""

import argparse
import copy
import json
import os
import shutil
import subprocess

import pytest

import certdp.__main__ as main
from certdp.audit import gate, ledger, status
from certdp.audit.discovery import discover
from certdp.audit.ledger import (
    LEDGER_PATH,
    Ledger,
    LedgerError,
    Vetting,
    ledger_text,
    pair_id,
    proof_fingerprints,
    read_entries,
)
from certdp.core.features import disable_features, enable_features, feature_enabled

from .conftest import table_id

NAME = "make_is_equal"

#: A format-1 ledger the reader accepts: entry a's digest is a JSON number (a hand edit, or
#: a tool's bug), which the gate compares unequal (a is outdated); the writer refuses it.
FORMAT_1 = {
    "a/make_a": {
        "fingerprints": {"a/make_a.py#a": 0},
        "proof": "p",
        "commit": "c",
        "reviewer": "r",
        "date": "2020-01-01",
    },
    "b/make_b": {
        "fingerprints": {"b/make_b.py#b": "d" * 64},
        "proof": "p",
        "commit": "c",
        "reviewer": "r",
        "date": "2020-01-01",
    },
}


@pytest.fixture
def package(tmp_path):
    folder = tmp_path / "certdp"
    (folder / LEDGER_PATH).parent.mkdir(parents=True)
    return folder


def _a_exists(monkeypatch):
    """Make ``a/make_a`` (the unwritable entry of FORMAT_1) a constructor of the package, so
    that the writer refuses it instead of dropping it as an orphan."""
    from types import SimpleNamespace

    from certdp.audit import discovery

    monkeypatch.setattr(discovery, "discover", lambda _: [SimpleNamespace(key="a/make_a")])


def test_migrate_does_not_replace_the_ledger_when_the_rewrite_does_not_read_back(
    package, monkeypatch
):
    _a_exists(monkeypatch)
    path = package / LEDGER_PATH
    path.write_text(json.dumps(FORMAT_1))
    before = path.read_text()
    read_entries(package)  # the reader accepts the format-1 ledger
    monkeypatch.setattr(ledger, "package_root", lambda: package)
    code = main._migrate(argparse.Namespace(migrate=True, name=None, by=None, reviewed=None))
    assert code == 1  # it reports the failure...
    assert path.read_text() == before, "...and leaves the ledger as it was"
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left


def test_a_failed_read_back_leaves_the_ledger_unchanged(package, monkeypatch):
    """Even when the text is written, a read-back that differs replaces nothing."""
    path = package / LEDGER_PATH
    written = Ledger(package)
    written.record("b/make_b", Vetting({"b/make_b.py#b": "d" * 64}, "p", "c", "r", "2020-01-01"))
    before = path.read_text()
    monkeypatch.setattr(ledger, "entries_of", lambda raw: {})
    with pytest.raises(LedgerError, match="read back"):
        written.record("c/make_c", Vetting({"c/make_c.py#c": "e" * 64}, "p", "c", "r"))
    assert path.read_text() == before
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_ledger_text_refuses_what_read_entries_would_not_read_back(package):
    """The writer refuses (typed, naming the entry) the numeric digest of a format-1 entry;
    every entry it does write reads back equal."""
    (package / LEDGER_PATH).write_text(json.dumps(FORMAT_1))
    entries = read_entries(package)
    with pytest.raises(LedgerError, match="a/make_a"):
        ledger_text(entries)
    kept = {key: value for key, value in entries.items() if key != "a/make_a"}
    (package / LEDGER_PATH).write_text(ledger_text(kept))
    assert read_entries(package) == kept


@pytest.mark.parametrize(
    "fingerprints, files",
    [
        ({"x.py#r": 1}, {}),  # a digest not a string
        ({"src/certdp/x.py#r": "1"}, {}),  # not package-relative: read back as x.py#r
        ({"def:../x.py@f": "1"}, {}),  # outside the package
        ({"lemma:/abs/x.tex": "1"}, {}),
        ({"x.py#r": "1"}, {"../x.py": "1"}),
        ({"x.py#r": "1"}, {"x.py": None}),
    ],
)
def test_the_writer_refuses_an_entry_it_could_not_read_back(fingerprints, files):
    vetting = Vetting(fingerprints, "p", "c", "r", files=files)
    with pytest.raises(LedgerError, match="k/make_k"):
        ledger_text({"k/make_k": vetting})


def test_vetting_one_constructor_never_makes_every_gate_call_raise(package, monkeypatch):
    """Recording into a ledger holding an entry the writer refuses raises (naming it) and
    writes nothing; re-vetting that entry replaces it, and then recording works."""
    _a_exists(monkeypatch)
    (package / LEDGER_PATH).write_text(json.dumps(FORMAT_1))
    before = (package / LEDGER_PATH).read_text()
    recorded = Ledger(package)
    with pytest.raises(LedgerError, match="a/make_a"):
        recorded.record("c/make_c", Vetting({"c/make_c.py#c": "e" * 64}, "p", "c", "r"))
    assert (package / LEDGER_PATH).read_text() == before
    after = read_entries(package)
    assert after["b/make_b"] == recorded.entries["b/make_b"]
    recorded.record("a/make_a", Vetting({"a/make_a.py#a": "f" * 64}, "p", "c", "r"))
    recorded.record("c/make_c", Vetting({"c/make_c.py#c": "e" * 64}, "p", "c", "r"))
    assert read_entries(package) == recorded.entries
    assert read_entries(package)["b/make_b"] == after["b/make_b"]


@pytest.fixture
def gate_reads(monkeypatch, package):
    """Make the runtime gate read the ledger of ``package`` through the real read_ledger."""
    was_contrib = feature_enabled("contrib")
    disable_features("contrib")

    def clear():
        status._folders.cache_clear()
        status.vetting_status.cache_clear()
        gate._up_to_date.discard(NAME)

    def use(text):
        (package / LEDGER_PATH).write_text(text)
        monkeypatch.setattr(status, "read_ledger", lambda _: ledger.read_ledger(package))
        clear()

    yield use
    monkeypatch.undo()
    clear()
    if was_contrib:
        enable_features("contrib")


def _current_vetting(files=None):
    (constructor,) = [c for c in discover() if c.name == NAME]
    fingerprints, proof = proof_fingerprints(constructor, files)
    return constructor, fingerprints, proof


def test_gate_and_audit_agree_when_another_entry_names_a_missing_pair(package, gate_reads):
    constructor, fingerprints, proof = _current_vetting()
    good = Vetting(fingerprints, proof, commit="c0ffee", reviewer="whoever")
    value = json.loads(ledger_text({constructor.key: good}))
    other = dict(value["entries"][constructor.key], fingerprints="0123456789ab")
    value["entries"]["transformations/zzz/make_zzz"] = other
    gate_reads(json.dumps(value))
    with pytest.raises(LedgerError, match="make_zzz"):
        read_entries(package)  # the audit refuses the whole ledger
    with pytest.raises(LedgerError, match="make_zzz"):  # and so does the gate
        gate.require_vetted_or_contrib(NAME)
    enable_features("contrib")
    with pytest.raises(LedgerError):  # contrib or not
        gate.require_vetted_or_contrib(NAME)


def test_helper_entry_is_up_to_date_through_the_gate(package, gate_reads):
    """Control: the fixture's entry is up to date, so the refusals above are the ledger's."""
    constructor, fingerprints, proof = _current_vetting()
    good = Vetting(fingerprints, proof, commit="c0ffee", reviewer="whoever")
    gate_reads(ledger_text({constructor.key: good}))
    gate.require_vetted_or_contrib(NAME)
    assert status.vetting_status(NAME).state == status.UP_TO_DATE
    assert read_entries(package)[constructor.key].proof == proof


def _by_hand(fingerprints: dict, files: dict, members: dict, layout: int) -> tuple[dict, dict]:
    """A ledger value (format 2 or 3) with one entry, built without the writer (which refuses
    names outside the package): its pairs and the entry's fingerprints and files."""
    if layout == 2:
        pairs = {pair_id(n, d): [n, d] for n, d in {**fingerprints, **files}.items()}
        return pairs, {
            **members,
            "fingerprints": " ".join(pair_id(n, d) for n, d in fingerprints.items()),
            "files": " ".join(pair_id(n, d) for n, d in files.items()),
        }
    listed = sorted(set(fingerprints.items()) | set(files.items()))
    index = {pair: number for number, pair in enumerate(listed)}
    bits = [sum(1 << index[p] for p in table.items()) for table in (fingerprints, files)]
    table = table_id([list(p) for p in listed])
    return [list(p) for p in listed], {
        **members,
        "fingerprints": f"{table}:{bits[0]:x}",
        "files": f"{table}:{bits[1]:x}",
    }


@pytest.mark.parametrize("layout", [2, 3])
@pytest.mark.parametrize("where", ["climbs", "absolute"])
def test_the_gate_tests_no_path_outside_the_package(
    package, gate_reads, tmp_path, monkeypatch, where, layout
):
    """A closure key naming a file outside the package (``def:../../x.py@f`` or an absolute
    path) is neither compared by the gate nor sealed; the reader refuses it, so every gate
    call raises (contrib or not) before any path outside the package is tested."""
    outside = tmp_path / "outside"
    (outside / "mod").mkdir(parents=True)
    (outside / "mod" / "__init__.py").write_text("")
    (outside / "mod.py").write_text("")
    files = {}
    constructor, fingerprints, proof = _current_vetting(files)
    climbs = "../" * len(constructor.package.parts[1:])
    path = str(outside / "mod.py")
    key = f"def:{climbs}{path.lstrip('/')}@f" if where == "climbs" else f"def:{path}@f"
    seal = ledger.files_seal(fingerprints, proof, files)
    vetting = Vetting({**fingerprints, key: "0"}, proof, "c", "r", files=files, seal=seal)
    # the writer refuses such a key, so build the file by hand
    members = {"proof": proof, "commit": "c", "reviewer": "r", "date": "2020-01-01", "seal": seal}
    pairs, entry = _by_hand(vetting.fingerprints, files, members, layout)
    value = {"format": layout, "pairs": pairs, "entries": {constructor.key: entry}}
    gate_reads(json.dumps(value))
    stats = []
    real_stat = ledger.os.stat
    monkeypatch.setattr(
        "certdp.audit.shadowing.os.stat",
        lambda p, *a, **k: stats.append(p) or real_stat(p, *a, **k),
    )
    with pytest.raises(LedgerError, match="outside the package"):
        status.vetting_status(NAME)
    with pytest.raises(LedgerError, match="outside the package"):
        read_entries(package)
    enable_features("contrib")
    with pytest.raises(LedgerError, match="outside the package"):
        gate.require_vetted_or_contrib(NAME)
    assert not [p for p in stats if str(outside) in str(p)]


def _vet_written(folder, entries_before, key, vetting):
    """The ledger text ``certdp vet`` leaves after recording ``vetting`` under ``key`` in a
    copy of the ledger file ``entries_before`` was written to."""
    package = folder / "certdp"
    (package / LEDGER_PATH).parent.mkdir(parents=True)
    shutil.copy(entries_before, package / LEDGER_PATH)
    Ledger(package).record(key, vetting)
    return (package / LEDGER_PATH).read_text()


def test_a_git_merge_of_two_vet_written_ledgers_conflicts_and_is_resolved_by_vetting(tmp_path):
    """Branch A re-vets x at lemma v2 (a new pair, which moves the indices after it); branch B
    re-vets the stale y at lemma v1.  Both ledgers are written by ``Ledger.record`` (what
    ``certdp vet`` runs).  Git does not merge them cleanly, and the conflicted text is no
    ledger (every reader raises); taking A's ledger and recording B's vetting again gives
    both, and the pair no entry uses any more is dropped by --migrate only."""

    def vetting(fingerprints):
        return Vetting(dict(fingerprints), "p", "c", "r", "2026-01-01")

    base = {
        "x/make_x": vetting({"lemma:l.tex": "1" * 64, "x.py#x": "x" * 64}),
        "y/make_y": vetting({"lemma:l.tex": "0" * 64, "y.py#y": "y" * 64}),
        "z/make_z": vetting({f"z{i}.py#z": f"{i:064d}" for i in range(200)}),
    }
    (tmp_path / "base").write_text(ledger_text(base))
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    ours["x/make_x"].fingerprints["lemma:l.tex"] = "2" * 64
    theirs["y/make_y"].fingerprints["lemma:l.tex"] = "1" * 64
    for name, entries, key in (("ours", ours, "x/make_x"), ("theirs", theirs, "y/make_y")):
        text = _vet_written(tmp_path / f"{name}-repo", tmp_path / "base", key, entries[key])
        (tmp_path / name).write_text(text)
    merged = subprocess.run(
        ["git", "merge-file", "-p", *(str(tmp_path / n) for n in ("ours", "base", "theirs"))],
        capture_output=True,
        text=True,
    )
    assert merged.returncode > 0 and "<<<<<<<" in merged.stdout  # a conflict
    package = tmp_path / "certdp"
    (package / LEDGER_PATH).parent.mkdir(parents=True)
    (package / LEDGER_PATH).write_text(merged.stdout)
    with pytest.raises(LedgerError, match="not JSON .*conflict markers"):
        read_entries(package)
    # the resolution: our ledger, their vetting recorded again
    shutil.copy(tmp_path / "ours", package / LEDGER_PATH)
    Ledger(package).record("y/make_y", theirs["y/make_y"])
    entries = read_entries(package)
    assert entries["y/make_y"] == theirs["y/make_y"]
    assert entries["x/make_x"] == ours["x/make_x"]
    assert entries["z/make_z"] == base["z/make_z"]
    kept = json.loads((package / LEDGER_PATH).read_text())["pairs"]
    assert ["lemma:l.tex", "0" * 64] in kept  # record keeps the pair no entry uses
    compact = Ledger(package)
    compact.write()
    assert read_entries(package) == entries
    written = json.loads((package / LEDGER_PATH).read_text())["pairs"]
    assert ["lemma:l.tex", "0" * 64] not in written and len(written) == len(kept) - 1


def _merged(tmp_path, base, sides) -> subprocess.CompletedProcess:
    """``git merge-file`` of the ledgers ``Ledger.record`` writes on two branches from the
    ledger of ``base``: ``sides`` is ``((key, vetting), (key, vetting))``, ours then theirs."""
    (tmp_path / "base").write_text(ledger_text(base))
    for name, (key, vetting) in zip(("ours", "theirs"), sides, strict=True):
        text = _vet_written(tmp_path / f"{name}-repo", tmp_path / "base", key, vetting)
        (tmp_path / name).write_text(text)
    return subprocess.run(
        ["git", "merge-file", "-p", *(str(tmp_path / n) for n in ("ours", "base", "theirs"))],
        capture_output=True,
        text=True,
    )


def _base_and_vetting():
    def vetting(fingerprints):
        return Vetting(dict(fingerprints), "p", "c", "r", "2026-01-01")

    z = {f"z{i}.py#z": f"{i:064d}" for i in range(200)}
    base = {
        "m/make_m": vetting({"m.py#m": "m" * 64}),
        "x/make_x": vetting({"x.py#x": "1" * 64}),
        "z/make_z": vetting(z),
    }
    return base, vetting, z


def test_a_clean_git_merge_never_reads_a_bitset_against_another_table(tmp_path):
    """Branch A re-vets x with a new pair that sorts first (every index moves by one); branch
    B vets a new row w whose pairs the base already holds (B's table is the base's).  Git
    merges the two ledgers cleanly: A's table, and w's bitset written against the base's.
    Read against A's table, w's bits would name other pairs than B recorded (shown with an
    independent decoder); the reader refuses the whole ledger instead, typed, naming w."""
    base, vetting, z = _base_and_vetting()
    x_new = vetting({"a.py#a": "a" * 64, "x.py#x": "1" * 64})
    w = vetting({name: z[name] for name in list(z)[100:110]})
    merged = _merged(tmp_path, base, (("x/make_x", x_new), ("w/make_w", w)))
    assert merged.returncode == 0 and "<<<<<<<" not in merged.stdout  # a clean merge
    value = json.loads(merged.stdout)
    assert value["pairs"][0] == ["a.py#a", "a" * 64]  # A's table
    # what w's bits name in the merged table: not w's pairs (each index moved by one)
    digits = int(value["entries"]["w/make_w"]["fingerprints"].split(":")[1], 16)
    named = dict(pair for i, pair in enumerate(value["pairs"]) if digits >> i & 1)
    assert named and named != w.fingerprints
    package = tmp_path / "certdp"
    (package / LEDGER_PATH).parent.mkdir(parents=True)
    (package / LEDGER_PATH).write_text(merged.stdout)
    with pytest.raises(LedgerError, match="'w/make_w'.*written against another table of pairs"):
        read_entries(package)
    with pytest.raises(LedgerError, match="another table of pairs"):
        Ledger(package)  # certdp vet refuses it too: take one side and vet the other's rows


def test_two_ledgers_that_each_added_a_pair_do_not_merge_cleanly(tmp_path):
    """Each branch inserts one pair, at distant places of the list (one sorts first, one
    last): each side's table changed, so each side rewrote every bitset line (a new table
    identity); every entry of the base is then changed differently on both sides, and git
    leaves conflict markers, which no reader accepts."""
    base, vetting, _ = _base_and_vetting()
    ours = ("x/make_x", vetting({"a.py#a": "a" * 64, "x.py#x": "1" * 64}))
    theirs = ("m/make_m", vetting({"m.py#m": "m" * 64, "zz.py#z": "f" * 64}))
    merged = _merged(tmp_path, base, (ours, theirs))
    assert merged.returncode > 0 and "<<<<<<<" in merged.stdout
    package = tmp_path / "certdp"
    (package / LEDGER_PATH).parent.mkdir(parents=True)
    (package / LEDGER_PATH).write_text(merged.stdout)
    with pytest.raises(LedgerError, match="not JSON .*conflict markers"):
        read_entries(package)


def test_record_keeps_every_pair_of_the_file(package):
    first = Ledger(package)
    first.record("x/make_x", Vetting({"x.py#x": "1" * 64}, "p", "c", "r"))
    first.record("x/make_x", Vetting({"x.py#x": "2" * 64}, "p", "c", "r"))
    pairs = json.loads((package / LEDGER_PATH).read_text())["pairs"]
    assert ["x.py#x", "1" * 64] in pairs and ["x.py#x", "2" * 64] in pairs
    assert read_entries(package) == first.entries


@pytest.mark.parametrize("kind", ["link", "dangling link", "fifo", "folder"])
def test_the_writer_refuses_a_ledger_path_that_is_not_a_regular_file(package, tmp_path, kind):
    """refgate F4: the reader takes a symbolic link (FIFO, folder) at the ledger's path for no
    ledger; ``record`` then started from no entries and ``os.replace``d the link, so every
    other vetting disappeared from the package.  The writer now refuses, typed, and leaves the
    path (and what a link leads to) as it was."""
    path = package / LEDGER_PATH
    shared = tmp_path / "shared-ledger.json"
    Ledger(package).record("b/make_b", Vetting({"b/make_b.py#b": "d" * 64}, "p", "c", "r"))
    os.replace(path, shared)
    before = shared.read_text()
    if kind == "link":
        path.symlink_to(shared)
    elif kind == "dangling link":
        path.symlink_to(tmp_path / "nothing.json")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    written = Ledger(package)
    assert not written.exists and written.entries == {}  # the reader's "no ledger"
    vetting = Vetting({"c/make_c.py#c": "e" * 64}, "p", "c", "r")
    with pytest.raises(LedgerError, match="not a regular file") as error:
        written.record("c/make_c", vetting)
    assert error.value.parameter == "ledger"
    with pytest.raises(LedgerError, match="not a regular file"):
        written.write()  # certdp vet --migrate
    assert path.is_symlink() == (kind in ("link", "dangling link"))
    assert shared.read_text() == before  # the link's target keeps its vettings
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no temporary left


def test_the_writer_still_creates_a_missing_ledger(package):
    """Nothing at the path: the writer starts a ledger, as before."""
    assert not (package / LEDGER_PATH).exists()
    written = Ledger(package)
    written.record("c/make_c", Vetting({"c/make_c.py#c": "e" * 64}, "p", "c", "r"))
    assert read_entries(package) == written.entries and len(written.entries) == 1
