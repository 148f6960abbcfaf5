"""The gate's cheaper file checks decide exactly as main's did (brief gatefast, session 17).

``read_regular_status``, ``has_digest``, ``files_unchanged``, ``fingerprinted_files`` and
``shadowing_files`` were made cheaper (``os.read`` instead of a duplicated buffered reader;
path strings remembered by ``lru_cache`` of pure string functions; the suffix lists read once
per call).  This test builds hostile package trees (symbolic links to files and folders,
dangling links, a FIFO, a socket, a folder where a file is expected, a package folder ``X/``
beside ``X.py``, ``X`` + an extension suffix, ``__init__`` + an extension suffix, cached
bytecode of every optimisation level and every class: unchecked, checked with the right and a
wrong hash, timestamp matching and older than its source within the same second, refused
flags, a short header, a folder or link or FIFO in place of a cached file, names too long
and holding NUL) and asserts that the current functions return, or raise, exactly what the
reference copies below return or raise, called cold (empty caches) and warm, also after the
host's suffix lists change and with ``sys.pycache_prefix`` set.

Running as root, a file without read permission is still readable, so "unreadable" cases are
made with names too long (``ENAMETOOLONG``) and folders (refused as not regular files).
A file that grows while it is read is not built: no deterministic way to time the growth.
"""

from __future__ import annotations

import errno
import hashlib
import importlib.machinery
import os
import shutil
import socket
import sys
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES, all_suffixes
from importlib.util import MAGIC_NUMBER, cache_from_source, source_hash
from pathlib import Path, PurePosixPath
from stat import S_ISDIR, S_ISLNK, S_ISREG

import pytest

from certdp.audit import ledger, regular_file, shadowing
from certdp.audit.discovery import ConstructorFolder
from certdp.audit.ledger import CLOSURE_PREFIX, INIT_PREFIX, MODEL_PREFIX
from certdp.audit.regular_file import _OPEN_FLAGS, NotRegularFile
from certdp.audit.shadowing import _ABSENT

# ---------------------------------------------------------------------------------------
# The reference oracle: main's functions (commit a48edc0, src/certdp/audit/regular_file.py,
# shadowing.py and ledger.py) copied VERBATIM, code and docstrings, so that the current
# functions are compared with what the gate did before they were made cheaper.  Do not edit.
# ---------------------------------------------------------------------------------------


def read_regular_status(path: str | Path, limit: int | None = None) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file ``path`` (the name itself, not followed), its first
    ``limit`` bytes when ``limit`` is given, and ``os.fstat`` of the descriptor they are read
    from (taken before the read: the status of the very file read); raises
    :class:`NotRegularFile` for anything else and ``OSError`` when it cannot be opened.
    Never blocks on opening (``O_NONBLOCK``) and reads only a regular file."""
    try:
        descriptor = os.open(path, _OPEN_FLAGS)  # label: open-nonblocking
    except OSError as error:
        if error.errno == errno.ELOOP:  # the final name is a symbolic link
            message = "a symbolic link, not a regular file"
            raise NotRegularFile(errno.ELOOP, message, str(path)) from None
        if error.errno == errno.ENXIO:  # label: open-socket
            message = "a socket or a device without its driver, not a regular file"
            raise NotRegularFile(errno.ENXIO, message, str(path)) from None
        raise
    try:
        status = os.fstat(descriptor)  # label: opened-status
        if not S_ISREG(status.st_mode):  # label: opened-regular
            raise NotRegularFile(errno.EINVAL, "not a regular file", str(path))
        with os.fdopen(os.dup(descriptor), "rb") as file:
            data = file.read() if limit is None else file.read(limit)  # label: read-bytes
        return data, status
    finally:
        os.close(descriptor)


def read_regular(path: str | Path) -> bytes:
    """The bytes of the regular file ``path`` (the name itself, not followed); raises
    :class:`NotRegularFile` for anything else and ``OSError`` when it cannot be opened.
    Never blocks on opening (``O_NONBLOCK``) and reads only a regular file."""
    return read_regular_status(path)[0]


def has_digest(path: str, digest: str) -> bool:
    """Is ``path`` a regular file (not followed) whose bytes have the sha256 hex ``digest``?
    ``False`` for a missing or invalid path and for anything but a regular file; another
    ``OSError`` (e.g. permission denied) is raised."""
    try:
        data = read_regular(path)  # label: read-regular
    except (FileNotFoundError, NotADirectoryError, NotRegularFile, ValueError):
        return False
    return hashlib.sha256(data).hexdigest() == digest  # label: compare-digest


def is_a(path: str, test, follow: bool = True) -> bool:
    """``test`` (``S_ISREG``, ``S_ISDIR`` or ``S_ISLNK``) of the file ``path`` names, symbolic
    links followed unless ``follow`` is false, as ``Path(path).is_file()`` / ``is_dir()`` /
    ``is_symlink()`` decide it in Python 3.11: ``False`` when it does not exist (``ENOENT``,
    ``ENOTDIR``, ``EBADF``, ``ELOOP``) or the path is not valid (``ValueError``); any other
    ``OSError`` (e.g. permission denied) is raised."""
    try:
        return test((os.stat(path) if follow else os.lstat(path)).st_mode)  # label: stat
    except OSError as error:
        if error.errno not in _ABSENT:
            raise
        return False
    except ValueError:
        return False


def _may_be(path: str, test) -> bool:
    """:func:`is_a`, or ``True`` when the ``stat`` raises another ``OSError`` (permission
    denied, a name too long, ...): a candidate that cannot be checked counts as found, so the
    gate refuses (typed) rather than vouch for what it could not see."""
    try:
        return is_a(path, test)  # label: stat-checked
    except OSError:
        return True  # label: stat-unchecked


def _stale_pyc(cached: str, source: str) -> bool:
    """Is the ``__pycache__`` file ``cached`` of the module file ``source`` one Python may load
    in place of the source (see :func:`_stale_pycs`)?  ``False`` when there is none, when
    it cannot be opened or read (any other ``OSError``: CPython 3.11's source loader passes
    over such a file and compiles the source) and when its flags have a bit above the two
    lowest set (refused by CPython's ``_classify_pyc``); flags with bit 0 clear are a
    timestamp file, bit 0 set a hash-based one whose bit 1 is ``check_source``.  Every
    file is read by :func:`read_regular_status` (never blocks, follows no final link): a
    ``cached`` that exists but is not a regular file (a symbolic link, which Python's loader
    would follow, a FIFO, a folder, ...) counts, and so does a ``source`` that the check of a
    hash-based file cannot read as a regular file."""
    try:
        # header and status from one descriptor: the status is that of the file whose header
        # was read, whatever replaces the name meanwhile
        header, opened = read_regular_status(cached, 16)  # label: pyc-header
    except NotRegularFile:
        return True  # label: pyc-not-regular
    except (OSError, ValueError):
        # absent, unreadable (permission denied, name too long, ...): CPython 3.11's
        # SourceLoader.get_code catches the OSError of reading the cached file and compiles
        # the source, so nothing there is loaded
        return False  # label: pyc-absent
    flags = int.from_bytes(header[4:8], "little") if len(header) == 16 else 1
    if flags & ~0b11:  # label: pyc-flags-refused
        return False  # CPython 3.11's _classify_pyc refuses the file; the source is compiled
    if not flags & 0b1:  # label: pyc-timestamp
        try:
            mode = os.stat(source)
        except OSError:
            return False  # no source: the source loader does not load this file
        return (
            header[8:12] == (int(mode.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
            and header[12:16] == (mode.st_size & 0xFFFFFFFF).to_bytes(4, "little")
            and opened.st_mtime_ns < mode.st_mtime_ns
        )  # label: pyc-older
    if flags == 0b01:  # label: pyc-unchecked
        return True  # hash-based, check_source clear: loaded unread under 'default'
    try:  # flags == 0b11: hash-based, check_source set
        data = read_regular(source)  # label: pyc-source
    except OSError:
        return True  # label: pyc-source-unread
    return header[8:16] != source_hash(data)  # label: pyc-hash


def _stale_pycs(package: Path, relative: PurePosixPath, source: str) -> list[str]:
    """The ``__pycache__`` files of module ``relative`` (every optimisation level) that Python
    may load in place of the source: an unchecked hash-based one (loaded without reading the
    source); a checked hash-based one whose recorded source hash is not that of the source (or
    whose source is not a regular file); a timestamp one whose recorded mtime and size match
    the source's (so Python loads it) but which was last written before the source was (its
    ``st_mtime_ns`` is smaller), so it may have been compiled from other text of the same size
    within the same second; and, conservatively, a cached path that exists but is not a
    regular file.  ``source`` is ``str(package.joinpath(*relative.parts))``."""
    found = []
    for level in ("", 1, 2):
        cached = cache_from_source(source, optimization=level)
        if _stale_pyc(cached, source):  # label: pyc-levels
            found.append(str(PurePosixPath(Path(cached).relative_to(package).as_posix())))
    return found


def _shadows_of(package: Path, key: str) -> list[str]:
    """The package-relative files found that Python's path finder prefers to module ``key``.
    Paths are built as strings: ``os.path.join(str(package), *parts)`` is the text of
    ``package.joinpath(*parts)`` for the parts of a ``PurePosixPath``."""
    relative = PurePosixPath(key)
    if relative.suffix != ".py":  # label: modules-only
        return []
    folder = os.path.join(str(package), *relative.parent.parts)  # label: folder-string
    source = os.path.join(folder, relative.name)  # label: source-string
    found = _stale_pycs(package, relative, source)  # label: pyc-every-module
    if relative.stem == "__init__":  # label: init-extension
        # the package folder is found first; inside it, __init__ with an extension suffix
        # is tried before __init__.py
        return found + [
            f"{relative.parent / ('__init__' + suffix)}"
            for suffix in EXTENSION_SUFFIXES
            if _may_be(os.path.join(folder, f"__init__{suffix}"), S_ISREG)
        ]
    if _may_be(os.path.join(folder, relative.stem), S_ISDIR):  # label: package-first
        found += [
            f"{relative.parent / relative.stem / ('__init__' + suffix)}"
            for suffix in all_suffixes()
            if _may_be(os.path.join(folder, relative.stem, f"__init__{suffix}"), S_ISREG)
        ]
    found += [
        f"{relative.parent / (relative.stem + suffix)}"
        for suffix in EXTENSION_SUFFIXES
        if _may_be(os.path.join(folder, f"{relative.stem}{suffix}"), S_ISREG)
    ]  # label: extension-next
    return found


def shadowing_files(package: Path, keys) -> tuple[str, ...]:
    """Every file below ``package`` that Python would import in place of a ``.py`` file among
    the package-relative paths ``keys`` (other paths are ignored), sorted."""
    return tuple(sorted({shadow for key in keys for shadow in _shadows_of(package, key)}))


def fingerprinted_files(keys) -> list[str]:
    """The package-relative files behind fingerprint keys (code files, lemma documents and
    SMT models)."""
    return sorted(
        {
            key.removeprefix("lemma:")
            .removeprefix(MODEL_PREFIX)
            .removeprefix(CLOSURE_PREFIX)
            .removeprefix(INIT_PREFIX)
            .split("#")[0]
            .split("@")[0]
            for key in keys
        }
    )


def files_unchanged(constructor: ConstructorFolder, files: dict[str, str]) -> bool:
    """Cheaply: does every file of ``files`` (package-relative path to sha256, as
    :func:`proof_fingerprints` records them) still have those bytes, with neither it nor a
    folder between it and the package a symbolic link, and is the constructor's proof among
    them?  Reads nothing outside the package: a path with ``..`` or an absolute one is
    ``False`` before any file is read.  Each file is a regular file checked by
    :func:`certdp.audit.regular_file.has_digest` (a FIFO, device, folder or link is ``False``
    without being read; opening never blocks)."""
    package = str(constructor.package.resolve())
    if constructor.relative(constructor.proof) not in files:  # label: starts-at-proof
        return False
    checked: set[str] = set()
    for key, digest in files.items():
        parts = PurePosixPath(key).parts
        if PurePosixPath(key).is_absolute() or ".." in parts or not parts:  # label: inside
            return False
        for depth in range(1, len(parts)):
            path = os.path.join(package, *parts[:depth])  # label: path-string
            if path not in checked:
                if is_a(path, S_ISLNK, follow=False):  # label: no-link
                    return False
                checked.add(path)
        path = os.path.join(package, *parts)  # label: file-string
        if not has_digest(path, digest):  # label: same-bytes-file
            return False
    return True


# ---------------------------------------------------------------------------------------
# end of the verbatim copy of main
# ---------------------------------------------------------------------------------------

ORACLE = {
    "read_regular_status": read_regular_status,
    "has_digest": has_digest,
    "shadowing_files": shadowing_files,
    "fingerprinted_files": fingerprinted_files,
    "files_unchanged": files_unchanged,
}
CURRENT = {
    "read_regular_status": regular_file.read_regular_status,
    "has_digest": regular_file.has_digest,
    "shadowing_files": shadowing.shadowing_files,
    "fingerprinted_files": ledger.fingerprinted_files,
    "files_unchanged": ledger.files_unchanged,
}


def clear_caches() -> None:
    """Empty every cache the current functions keep (so that a call runs cold)."""
    for function in (ledger._file_of_str, ledger._paths_below, shadowing._candidates):
        function.cache_clear()


def outcome(function, *args):
    """What a call returns, or the type, errno and text of what it raises; ``os.stat_result``
    values are reduced to the fields that identify the file read."""
    try:
        value = function(*args)
    except Exception as error:  # noqa: BLE001 - every exception is compared
        return ("raised", type(error), getattr(error, "errno", None), str(error))
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], os.stat_result):
        data, status = value
        return ("returned", data, status.st_ino, status.st_mode, status.st_size)
    return ("returned", value)


def same(name: str, *args) -> object:
    """Assert that the current ``name`` answers as main's, cold then warm; return the answer."""
    clear_caches()
    expected = outcome(ORACLE[name], *args)
    assert outcome(CURRENT[name], *args) == expected, (name, args)  # cold caches
    assert outcome(CURRENT[name], *args) == expected, (name, args)  # warm caches
    return expected


class Folder:
    """The part of a ``ConstructorFolder`` that ``files_unchanged`` uses."""

    def __init__(self, package: Path, proof: Path):
        self.package, self.proof = package, proof

    def relative(self, path: Path) -> str:
        return path.resolve().relative_to(self.package.resolve()).as_posix()


def pyc(source: Path, level, flags: int, tail: bytes, short: bool = False) -> Path:
    """Write a cached bytecode file of ``source`` at optimisation ``level`` with ``flags``
    and the 8 header bytes ``tail`` (a body follows; ``short``: a 10-byte file)."""
    cached = Path(cache_from_source(str(source), optimization=level))
    cached.parent.mkdir(parents=True, exist_ok=True)
    header = MAGIC_NUMBER + flags.to_bytes(4, "little") + tail
    cached.write_bytes(header[:10] if short else header + b"\xe3body")
    return cached


def timestamp(source: Path) -> bytes:
    status = source.stat()
    mtime = (int(status.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
    return mtime + (status.st_size & 0xFFFFFFFF).to_bytes(4, "little")


@pytest.fixture(scope="module")
def tree():
    """A hostile package tree (below a short /tmp folder, for the socket's name) and the
    keys to check: yields (package, keys)."""
    base = Path(tempfile.mkdtemp(prefix="gf", dir="/tmp"))
    package = base / "pkg"
    sub = package / "sub"
    sub.mkdir(parents=True)
    keys = []

    def module(relative: str, text: str = "x = 1\n") -> Path:
        path = package / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        keys.append(relative)
        return path

    module("proof.tex", "\\proof\n")
    module("__init__.py", "")
    module("sub/__init__.py", "")
    plain = module("sub/plain.py")
    # cached bytecode of every class, at every level
    classes = {
        "unchecked": lambda s, lv: pyc(s, lv, 0b01, b"\0" * 8),
        "checked_right": lambda s, lv: pyc(s, lv, 0b11, source_hash(s.read_bytes())),
        "checked_wrong": lambda s, lv: pyc(s, lv, 0b11, b"\1" * 8),
        "timestamp_fresh": lambda s, lv: pyc(s, lv, 0b00, timestamp(s)),
        "timestamp_flag2": lambda s, lv: pyc(s, lv, 0b10, timestamp(s)),
        "timestamp_other": lambda s, lv: pyc(s, lv, 0b00, b"\0" * 8),
        "refused": lambda s, lv: pyc(s, lv, 0b100, b"\0" * 8),
        "short": lambda s, lv: pyc(s, lv, 0b00, b"\0" * 8, short=True),
    }
    for name, make in classes.items():
        for level in ("", 1, 2):
            source = module(f"sub/pyc_{name}_{level or 0}.py", f"value = {name!r}\n")
            make(source, level)
    # a timestamp file older than its source, same second and size (the source rewritten after)
    older = module("sub/pyc_older.py", "a = 1\n")
    cached = pyc(older, "", 0b00, timestamp(older))
    second = int(older.stat().st_mtime)
    os.utime(cached, ns=(second * 10**9 + 100, second * 10**9 + 100))
    older.write_text("b = 2\n")
    os.utime(older, ns=(second * 10**9 + 500, second * 10**9 + 500))
    assert timestamp(older) == cached.read_bytes()[8:16]
    # things that are not regular files at cached paths
    for name, make in {
        "pyc_folder": lambda c: c.mkdir(),
        "pyc_link": lambda c: c.symlink_to(plain),
        "pyc_dangling": lambda c: c.symlink_to(package / "nowhere"),
        "pyc_fifo": lambda c: os.mkfifo(c),
    }.items():
        source = module(f"sub/{name}.py")
        cached = Path(cache_from_source(str(source)))
        cached.parent.mkdir(exist_ok=True)
        make(cached)
    # a checked hash-based file whose source is not a regular file
    target = module("sub/target.py")
    linked = package / "sub/linked_source.py"
    linked.symlink_to(target)
    keys.append("sub/linked_source.py")
    pyc(linked, "", 0b11, source_hash(target.read_bytes()))
    fifo_source = package / "sub/fifo_source.py"
    os.mkfifo(fifo_source)
    keys.append("sub/fifo_source.py")
    pyc(fifo_source, "", 0b11, b"\0" * 8)
    pyc(fifo_source, 1, 0b00, b"\0" * 8)
    folder_source = package / "sub/folder_source.py"
    folder_source.mkdir()
    keys.append("sub/folder_source.py")
    sock = package / "sub/sock.py"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock))
    keys.append("sub/sock.py")
    # packages and extension modules beside X.py
    module("sub/pkg_init.py")
    module("sub/pkg_init/__init__.py", "")
    module("sub/pkg_empty.py")
    (sub / "pkg_empty").mkdir()
    module("sub/pkg_ext.py")
    (sub / "pkg_ext").mkdir()
    (sub / "pkg_ext" / f"__init__{EXTENSION_SUFFIXES[0]}").write_bytes(b"\x7fELF")
    module("sub/pkg_pyc.py")
    (sub / "pkg_pyc").mkdir()
    (sub / "pkg_pyc" / "__init__.pyc").write_bytes(b"")
    module("sub/pkg_link.py")
    (sub / "pkg_link").symlink_to(sub / "pkg_init")
    module("sub/pkg_file.py")
    (sub / "pkg_file").write_text("not a folder\n")
    for index, suffix in enumerate(EXTENSION_SUFFIXES):
        module(f"sub/ext{index}.py")
        (sub / f"ext{index}{suffix}").write_bytes(b"\x7fELF")
    module("sub/ext_link.py")
    (sub / f"ext_link{EXTENSION_SUFFIXES[-1]}").symlink_to(plain)
    module("sub/ext_dangling.py")
    (sub / f"ext_dangling{EXTENSION_SUFFIXES[-1]}").symlink_to(sub / "nowhere")
    module("sub/ext_folder.py")
    (sub / f"ext_folder{EXTENSION_SUFFIXES[0]}").mkdir()
    module("inner/__init__.py", "")
    (package / "inner" / f"__init__{EXTENSION_SUFFIXES[0]}").write_bytes(b"\x7fELF")
    # a symbolic link to a folder on the way, and to a file
    module("real/mod.py")
    (package / "linked").symlink_to(package / "real")
    keys.append("linked/mod.py")
    (package / "sub/file_link.py").symlink_to(plain)
    keys.append("sub/file_link.py")
    # names that cannot be tested or are not modules
    keys += [
        "sub/" + "n" * 300 + ".py",
        "sub/" + "n" * 300 + "/x.py",
        "sub/nul\0.py",
        "sub/missing.py",
        "sub/missing/inner.py",
        "sub/plain.py/through_a_file.py",
        "notes.txt",
        "sub/.py",
        "sub/x.py.py",
        "sub/./dot.py",
        "sub//double.py",
    ]
    try:
        yield package, keys
    finally:
        server.close()
        shutil.rmtree(base)


def test_read_regular_status_as_main(tree):
    package, keys = tree
    paths = [str(package / key) for key in keys] + [str(path) for path in package.rglob("*")]
    assert len(paths) > 150
    answers = set()
    for path in paths:
        for limit in (None, 16, 0, 3):
            answers.add(same("read_regular_status", path, limit)[0:2])
        answers.add(same("read_regular_status", Path(path))[0])
    raised = {answer[1] for answer in answers if answer[0] == "raised"}
    # the tree did exercise the refusals, not only regular files: links, FIFOs, folders and
    # the socket (NotRegularFile), missing files, a file on the way (ENOTDIR), a name too
    # long (a plain OSError) and a NUL (ValueError)
    assert {NotRegularFile, FileNotFoundError, NotADirectoryError, OSError, ValueError} <= raised


def test_read_regular_status_reads_a_large_file_whole(tmp_path):
    """More bytes than one read returns from a pipe, and than the buffered reader's buffer."""
    path = tmp_path / "large.py"
    path.write_bytes(os.urandom(3 * 2**20 + 7))
    assert same("read_regular_status", str(path))[1] == path.read_bytes()
    assert same("read_regular_status", str(path), 2**20 + 3)[1] == path.read_bytes()[: 2**20 + 3]
    empty = tmp_path / "empty.py"
    empty.write_bytes(b"")
    assert same("read_regular_status", str(empty))[1] == b""


def test_has_digest_as_main(tree):
    package, keys = tree
    for key in keys:
        path = str(package / key)
        same("has_digest", path, digests(package, [key])[key])
        same("has_digest", path, "0" * 64)


def test_shadowing_files_as_main(tree):
    package, keys = tree
    found = same("shadowing_files", package, keys)[1]
    # the tree is hostile: many shadows are reported (each key's own answer is compared too)
    assert len(found) > 40
    for key in keys:
        same("shadowing_files", package, [key])
    same("shadowing_files", package, [])
    same("shadowing_files", package, list(reversed(keys)))


def test_shadowing_follows_the_suffix_lists_as_they_are_at_the_call(tree, monkeypatch):
    """The candidate cache is keyed on the suffix lists: an added or removed suffix changes
    the answer exactly as it changes main's."""
    package, keys = tree
    before = same("shadowing_files", package, keys)
    (package / "sub" / "plain.weird").write_bytes(b"")
    (package / "sub" / "pkg_empty" / "__init__.weird").write_bytes(b"")
    monkeypatch.setattr(importlib.machinery, "SOURCE_SUFFIXES", [".py", ".weird"])
    EXTENSION_SUFFIXES.append(".weird")
    try:
        shadowing.shadowing_files(package, keys)  # fill the caches with the changed lists
        after = same("shadowing_files", package, keys)
        assert after != before
        assert "sub/plain.weird" in after[1] and "sub/pkg_empty/__init__.weird" in after[1]
    finally:
        EXTENSION_SUFFIXES.remove(".weird")
    monkeypatch.undo()
    shadowing.shadowing_files(package, keys)
    assert same("shadowing_files", package, keys) == before


def test_shadowing_follows_the_pycache_prefix(tree, monkeypatch, tmp_path):
    """With ``sys.pycache_prefix`` set the cached paths are elsewhere (main's answer: the
    files written under the prefix; the ones in ``__pycache__`` no longer count)."""
    package, keys = tree
    before = same("shadowing_files", package, keys)
    monkeypatch.setattr(sys, "pycache_prefix", str(package / "prefix"))
    source = package / "sub" / "plain.py"
    pyc(source, "", 0b01, b"\0" * 8)
    after = same("shadowing_files", package, keys)
    assert after != before and any(name.startswith("prefix/") for name in after[1])
    monkeypatch.undo()
    assert same("shadowing_files", package, keys) == before


def test_fingerprinted_files_as_main(tree):
    _, keys = tree
    prefixed = [
        f"{prefix}{key}{tail}"
        for key in keys
        for prefix in ("", "lemma:", MODEL_PREFIX, CLOSURE_PREFIX, INIT_PREFIX, "lemma:def:")
        for tail in ("", "#range", "@name", "#a@b", "@a#b")
    ]
    same("fingerprinted_files", prefixed)
    same("fingerprinted_files", [])
    same("fingerprinted_files", {key: "digest" for key in prefixed})


def digests(package: Path, keys) -> dict[str, str]:
    answer = {}
    for key in keys:
        try:  # main's reader: never blocks on the FIFOs of the tree
            answer[key] = hashlib.sha256(read_regular(str(package / key))).hexdigest()
        except (OSError, ValueError):
            answer[key] = "0" * 64
    return answer


def test_files_unchanged_as_main(tree):
    package, keys = tree
    folder = Folder(package, package / "proof.tex")
    good = ["proof.tex", "__init__.py", "sub/__init__.py", "sub/plain.py", "real/mod.py"]
    recorded = digests(package, good)
    assert same("files_unchanged", folder, recorded) == ("returned", True)
    for key in keys + ["/abs/x.py", "../x.py", "sub/../plain.py", "", ".", "sub/"]:
        files = {**recorded, key: digests(package, [key])[key]}
        same("files_unchanged", folder, files)
        same("files_unchanged", folder, {key: "0" * 64, **recorded})
    for key in good:
        same("files_unchanged", folder, {**recorded, key: "0" * 64})
    same("files_unchanged", folder, {k: v for k, v in recorded.items() if k != "proof.tex"})
    # a package reached through a link, and a proof the package does not hold
    link = package.parent / "pkg_link"
    if not link.exists():
        link.symlink_to(package)
    same("files_unchanged", Folder(link, link / "proof.tex"), recorded)
    same("files_unchanged", Folder(package, package / "sub" / "plain.py"), recorded)
