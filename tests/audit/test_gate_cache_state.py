"""Referee refgate (session 17): the path caches must give main's answers after the process
state they depend on changes *between* calls, with the caches warm.

test_gate_fast_equivalence.py's ``same`` empties the caches before every comparison, so it
never calls the branch with a cache filled under other settings: a cache that ignored
``sys.pycache_prefix``, the suffix lists or the cache tag passes it (checked by mutation).
The tests here fill the caches first, change the state, and compare with main's copy
(the oracle of test_gate_fast_equivalence.py) without emptying anything.
"""

from __future__ import annotations

import importlib._bootstrap_external as bootstrap
import importlib.util
import os
import stat
import sys
from importlib.machinery import BYTECODE_SUFFIXES, EXTENSION_SUFFIXES
from importlib.util import cache_from_source
from pathlib import Path

import pytest

from certdp.audit import ledger, shadowing

_spec = importlib.util.spec_from_file_location(
    "gate_fast_oracle", Path(__file__).with_name("test_gate_fast_equivalence.py")
)
eq = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(eq)


def _tree(root: Path) -> tuple[Path, list[str]]:
    package = root / "pkg"
    (package / "sub").mkdir(parents=True)
    keys = []
    for relative in ("proof.tex", "__init__.py", "sub/__init__.py", "sub/m.py", "sub/n.py"):
        (package / relative).write_text("x = 1\n")
        keys.append(relative)
    return package, keys


def _unchecked(cached: str) -> None:
    Path(cached).parent.mkdir(parents=True, exist_ok=True)
    Path(cached).write_bytes(importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + bytes(8))


def _agree(package, keys):
    expected = eq.outcome(eq.shadowing_files, package, keys)
    assert eq.outcome(shadowing.shadowing_files, package, keys) == expected
    return expected


def test_prefix_set_after_a_warm_call_and_unset_again(tmp_path, monkeypatch):
    package, keys = _tree(tmp_path)
    _unchecked(cache_from_source(str(package / "sub" / "m.py")))  # in __pycache__
    eq.clear_caches()
    first = _agree(package, keys)  # caches filled without a prefix
    assert "sub/__pycache__/" + Path(cache_from_source(str(package / "sub/m.py"))).name in first[1]
    monkeypatch.setattr(sys, "pycache_prefix", str(package / "prefix"))
    _unchecked(cache_from_source(str(package / "sub" / "n.py")))  # under the prefix
    second = _agree(package, keys)  # warm
    assert second != first
    monkeypatch.undo()
    assert _agree(package, keys) == first  # warm, filled under the prefix meanwhile


def test_extension_suffix_added_after_a_warm_call(tmp_path):
    package, keys = _tree(tmp_path)
    (package / "sub" / "m.weird").write_bytes(b"")
    (package / "sub" / "__init__.weird").write_bytes(b"")
    eq.clear_caches()
    first = _agree(package, keys)
    EXTENSION_SUFFIXES.append(".weird")
    try:
        second = _agree(package, keys)  # warm, a suffix more
        assert {"sub/m.weird", "sub/__init__.weird"} <= set(second[1])
    finally:
        EXTENSION_SUFFIXES.remove(".weird")
    assert _agree(package, keys) == first


def test_cache_tag_changed_after_a_warm_call(tmp_path, monkeypatch):
    package, keys = _tree(tmp_path)
    eq.clear_caches()
    first = _agree(package, keys)
    monkeypatch.setattr(sys.implementation, "cache_tag", "other-99")
    _unchecked(cache_from_source(str(package / "sub" / "m.py")))
    assert _agree(package, keys) != first
    monkeypatch.setattr(sys.implementation, "cache_tag", None)
    assert _agree(package, keys)[1] is NotImplementedError


def test_bytecode_suffix_mutated_in_place_after_a_warm_call(tmp_path):
    package, keys = _tree(tmp_path)
    eq.clear_caches()
    first = _agree(package, keys)
    BYTECODE_SUFFIXES[0] = ".pyx"
    try:
        _unchecked(cache_from_source(str(package / "sub" / "m.py")))
        assert _agree(package, keys) != first
    finally:
        BYTECODE_SUFFIXES[0] = ".pyc"


@pytest.mark.parametrize("name, value", [("BYTECODE_SUFFIXES", [".pyx"]), ("_PYCACHE", "__pyc2__")])
def test_importlib_global_rebound_after_a_warm_call(tmp_path, monkeypatch, name, value):
    """refgate finding 2: cache_from_source reads the module globals of
    importlib._bootstrap_external (BYTECODE_SUFFIXES by name, _PYCACHE, _OPT), which
    Python's own SourceLoader follows; a remembered pyc path went stale when one was
    rebound.  The pyc paths are now computed at every call."""
    package, keys = _tree(tmp_path)
    eq.clear_caches()
    first = _agree(package, keys)
    monkeypatch.setattr(bootstrap, name, value)
    _unchecked(cache_from_source(str(package / "sub" / "m.py")))  # where Python now looks
    assert _agree(package, keys) != first


def test_package_replaced_and_folder_swapped_for_a_link_between_calls(tmp_path):
    package, keys = _tree(tmp_path)
    folder = eq.Folder(package, package / "proof.tex")
    recorded = eq.digests(package, keys)
    eq.clear_caches()
    assert ledger.files_unchanged(folder, recorded) is True
    assert eq.files_unchanged(folder, recorded) is True
    # the same path now a link to a copy: sub a link
    (package / "sub").rename(tmp_path / "elsewhere")
    (package / "sub").symlink_to(tmp_path / "elsewhere")
    assert ledger.files_unchanged(folder, recorded) is eq.files_unchanged(folder, recorded) is False
    (package / "sub").unlink()
    (tmp_path / "elsewhere").rename(package / "sub")
    assert ledger.files_unchanged(folder, recorded) is True
    # the whole package moved away and another tree put at its path
    package.rename(tmp_path / "moved")
    other, _ = _tree(tmp_path)
    (other / "sub" / "m.py").write_text("x = 2\n")
    assert ledger.files_unchanged(folder, recorded) is eq.files_unchanged(folder, recorded) is False


def test_devices_in_place_of_a_file_and_of_a_cached_file(tmp_path):
    package, keys = _tree(tmp_path)
    for relative in ("sub/dev.py", "sub/zero.py"):
        os.mknod(package / relative, stat.S_IFCHR | 0o600, os.makedev(1, 5))  # /dev/zero
        keys.append(relative)
    cached = Path(cache_from_source(str(package / "sub" / "m.py")))
    cached.parent.mkdir(exist_ok=True)
    os.mknod(cached, stat.S_IFCHR | 0o600, os.makedev(1, 5))
    eq.clear_caches()
    for _ in range(2):
        assert "sub/__pycache__/" + cached.name in _agree(package, keys)[1]
    folder = eq.Folder(package, package / "proof.tex")
    recorded = eq.digests(package, keys)
    for _ in range(2):
        assert ledger.files_unchanged(folder, recorded) is eq.files_unchanged(folder, recorded)
    for path in (package / "sub/dev.py", cached):
        assert eq.outcome(eq.read_regular_status, str(path)) == eq.outcome(
            shadowing.read_regular_status, str(path)
        )


def test_a_str_subclass_key_poisons_the_caches_for_later_plain_calls(tmp_path):
    """refgate finding 1: lru_cache keys compare with ==, so a value computed for a str
    subclass (PurePosixPath reads str(key); a removeprefix override) was returned later for
    the equal plain string the gate passes.  The caches now take keys of the class str
    itself only; any other key is computed directly."""

    class Other(str):
        def __str__(self):
            return "sub/n.py"

    class Prefix(str):
        def removeprefix(self, prefix):
            return "sub/n.py"

    package, keys = _tree(tmp_path)
    _unchecked(cache_from_source(str(package / "sub" / "m.py")))
    eq.clear_caches()
    shadowing.shadowing_files(package, [Other("sub/m.py")])  # any earlier caller
    assert _agree(package, ["sub/m.py"])[1] != ()  # main: m's stale cached file is reported
    # _file_of_str's one-argument cache keeps a plain str key as itself and any other as a
    # tuple, so a subclass never shares a plain key's entry (refgate2 finding 1); the exact
    # type test before it (file-of-exact) only keeps the stated rule simple.  The answer
    # for the plain key is main's either way:
    ledger.fingerprinted_files([Prefix("lemma:sub/m.py")])
    assert ledger.fingerprinted_files(["lemma:sub/m.py"]) == eq.fingerprinted_files(
        ["lemma:sub/m.py"]
    )


def test_an_edit_after_a_poisoning_call_is_not_refused(tmp_path):
    """refgate finding 1: one earlier call of the public files_unchanged with a str-subclass
    key left _paths_below's entry for the equal plain key pointing at another file (an
    unchanged copy), so an edit of the vetted file was not seen by any later call."""

    class Copy(str):
        def __str__(self):
            return "sub/copy.py"

    package, keys = _tree(tmp_path)
    (package / "sub" / "copy.py").write_bytes((package / "sub" / "m.py").read_bytes())
    folder = eq.Folder(package, package / "proof.tex")
    recorded = eq.digests(package, keys)
    eq.clear_caches()
    ledger.files_unchanged(folder, {"proof.tex": recorded["proof.tex"], Copy("sub/m.py"): "0"})
    (package / "sub" / "m.py").write_text("x = 'edited'\n")  # the edit after the check
    assert eq.files_unchanged(folder, recorded) is False
    assert ledger.files_unchanged(folder, recorded) is False
