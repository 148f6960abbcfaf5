"""Path strings without pathlib (brief gatestr, session 18, part A) decide exactly as main's did.

``ledger._paths_below`` and ``shadowing._candidates`` now split a plain key (a ``str`` whose
``/``-separated components are all non-empty and not ``.``) with ``str.split`` and take its
suffix and stem from :func:`certdp.audit.path_parts.suffix_and_stem` (names starting or
ending with ``.`` excepted); any other key still goes through ``PurePosixPath``.  The
reference functions below are main's (585c255), copied verbatim apart from their names; every key is compared with them, on fixed hostile keys and
on keys drawn by hypothesis from an alphabet of separators, dots and odd characters.
"""

from __future__ import annotations

import os
from pathlib import PurePosixPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from certdp.audit import ledger, shadowing
from certdp.audit.path_parts import plain_parts, suffix_and_stem


# --- main's functions (585c255), copied verbatim as the oracle (only the names changed) ---
def main_paths_below(package: str, key: str) -> tuple[str, ...] | None:
    relative = PurePosixPath(key)
    parts = relative.parts
    if relative.is_absolute() or ".." in parts or not parts:
        return None
    joined = (os.path.join(package, *parts[:depth]) for depth in range(1, len(parts) + 1))
    return tuple(joined)  # label: path-strings


def main_candidates(package: str, key: str, extension: tuple, suffixes: tuple):
    relative = PurePosixPath(key)
    if relative.suffix != ".py":  # label: modules-only
        return None
    folder = os.path.join(package, *relative.parent.parts)  # label: folder-string
    source = os.path.join(folder, relative.name)  # label: source-string
    stem = relative.stem
    if stem == "__init__":  # label: init-extension
        # the package folder is found first; inside it, __init__ with an extension suffix
        # is tried before __init__.py
        beside = tuple((os.path.join(folder, f"__init__{suffix}"), suffix) for suffix in extension)
        return source, None, (), beside
    directory = os.path.join(folder, stem)
    inits = tuple((os.path.join(directory, f"__init__{suffix}"), suffix) for suffix in suffixes)
    extensions = tuple((os.path.join(folder, f"{stem}{suffix}"), suffix) for suffix in extension)
    return source, directory, inits, extensions


# --- end of main's functions ---


class Key(str):
    """A ``str`` subclass: never split without pathlib."""


HOSTILE = [
    "",
    ".",
    "..",
    "/",
    "//",
    "///",
    "a",
    "a.py",
    ".py",
    "a.py.py",
    "__init__.py",
    ".hidden.py",
    "a/__init__.py",
    "a//b.py",
    "a/./b.py",
    "./a.py",
    "a/.",
    "a/",
    "a.py/",
    "/a.py",
    "//a.py",
    "///a.py",
    "a/../b.py",
    "../a.py",
    "a/..",
    "..py",
    "...py",
    "a.",
    "a.py.",
    "a..py",
    ".a",
    "a/b/c/d/e.py",
    "a\\b.py",
    "a\\..\\b.py",
    "a/\x00.py",
    "\x00",
    "é/ü.py",
    "日本/語.py",
    "a b/c d.py",
    "a/ .py",
    "a/b.PY",
    "a/b.pyc",
    "a/b.py ",
    " /a.py",
    "a/.../b.py",
    "make_x.py/contract.py",
    "a/.py",
    "a/b./c.py",
    "a/.b/c.py",
]
PACKAGES = ["/pkg", "/pkg/", "", "pkg", "/p k/é", "/"]
EXTENSION = (".cpython-311-x86_64-linux-gnu.so", ".abi3.so", ".so")
SUFFIXES = (".py", ".pyc", *EXTENSION)


TOKENS = ["/", ".", "a", "py", ".py", "\\", "\x00", "é", " ", "__init__", ".."]


def expect_same(new, old, *args):
    """``new(*args)`` returns what ``old(*args)`` returns, or raises the same exception class."""
    try:
        expected = ("value", old(*args))
    except Exception as error:  # noqa: BLE001 - the class is compared
        expected = ("raise", type(error))
    try:
        got = ("value", new(*args))
    except Exception as error:  # noqa: BLE001
        got = ("raise", type(error))
    assert got == expected, args
    if got[0] == "value" and got[1] is not None:
        assert type(got[1]) is type(expected[1])


def suffix_stem_311(name):
    """``PurePath.suffix`` and ``.stem`` of Python 3.11 to 3.13, of a path named ``name``."""
    i = name.rfind(".")
    if 0 < i < len(name) - 1:
        return name[i:], name[:i]
    return "", name


def suffix_stem_314(name):
    """``PurePath.suffix`` and ``.stem`` of Python 3.14 (CPython's Lib/pathlib/_local.py),
    of a path named ``name``."""
    stripped = name.lstrip(".")
    i = stripped.rfind(".")
    suffix = stripped[i:] if i != -1 else ""
    i = name.rfind(".")
    stem = name
    if i != -1 and name[:i].lstrip("."):
        stem = name[:i]
    return suffix, stem


def check_name(name):
    """``suffix_and_stem`` answers what the running pathlib answers, and what both rules
    answer, for every name it does not leave to pathlib (those starting or ending with ``.``
    are left, and only those)."""
    got = suffix_and_stem(name)
    assert (got is None) == (name.startswith(".") or name.endswith("."))
    if got is not None:
        relative = PurePosixPath(name)
        assert got == (relative.suffix, relative.stem)
        assert got == suffix_stem_311(name) == suffix_stem_314(name)


def check_key(key):
    parts = plain_parts(key)
    if parts is not None:
        assert type(key) is str
        assert parts == PurePosixPath(key).parts
        assert all(type(part) is str for part in parts)
        check_name(parts[-1])
    for package in PACKAGES:
        expect_same(ledger._paths_below.__wrapped__, main_paths_below, package, key)
        expect_same(
            shadowing._candidates.__wrapped__, main_candidates, package, key, EXTENSION, SUFFIXES
        )
        if type(key) is str:  # through the caches too, as the gate calls them
            expect_same(ledger._paths_below, main_paths_below, package, key)
            expect_same(shadowing._candidates, main_candidates, package, key, EXTENSION, SUFFIXES)


@pytest.mark.parametrize("key", HOSTILE)
def test_hostile_keys(key):
    check_key(key)


@pytest.mark.parametrize("key", HOSTILE)
def test_str_subclass_takes_pathlib(key):
    assert plain_parts(Key(key)) is None
    check_key(Key(key))


def test_plain_is_exactly_split_without_empty_or_dot():
    assert plain_parts("a/b/c.py") == ("a", "b", "c.py")
    assert plain_parts("a/../b.py") == ("a", "..", "b.py")  # `..` is plain: pathlib keeps it
    for key in ["", "/a", "a/", "a//b", "./a", "a/./b", "a/.", "."]:
        assert plain_parts(key) is None, key


def test_the_real_ledger_keys_are_plain():
    """The fast path is the one the gate takes: every key of the ledger is plain."""
    from certdp.audit.discovery import package_root

    entries = ledger.read_ledger(package_root().resolve())
    keys = {key for vetting in entries.values() for key in (vetting.files or {})}
    assert keys
    assert all(plain_parts(key) is not None for key in keys)
    assert all(suffix_and_stem(key.split("/")[-1]) is not None for key in keys)
    for key in sorted(keys)[:50]:
        check_key(key)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=10).map("".join))
def test_drawn_keys(key):
    check_key(key)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=10))
def test_drawn_names(name):
    if "/" in name or name in ("", "."):
        return
    if PurePosixPath(name).parts == (name,):
        check_name(name)
    check_key(name)
