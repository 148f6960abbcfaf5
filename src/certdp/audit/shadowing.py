"""Files that Python would import in place of a vetted module.

Python's path finder, looking for module ``X`` in a folder, takes a package ``X/`` (a folder
holding ``__init__`` with any importable suffix) first, then an extension module ``X.<suffix>``,
and only then ``X.py``; inside a package folder, ``__init__.<extension suffix>`` comes before
``__init__.py``.  So such a file beside a vetted ``X.py`` (or ``X/__init__.py``) runs instead of
the vetted code while every byte the vetting recorded is unchanged; a candidate path whose
``stat`` fails otherwise than "no such file" (permission denied, a name too long) is reported
as such a file, since what cannot be checked must not be vouched for.  So does a ``__pycache__``
file Python may load without it being the source's compilation: an unchecked hash-based one, a
checked one whose recorded hash is not the source's, and a timestamp one written before the
source's last write; such files are reported too, and so is any cached path that exists but is
not a regular file (Python follows a symbolic link there; a FIFO there would block it).  Every
cached file and source is read by the regular-file reader, so no FIFO stops the check.  The
gate and the audit report a proof whose modules are shadowed this way as not up to date,
naming the shadowing files.  The audit checks the cached files of the optimisation levels 0,
1 and 2 (what ``python``, ``python -O`` and ``python -OO`` load: :data:`AUDITED_LEVELS`); the
runtime gate, which guards only its own process, the one file this process's source loader
reads (:data:`LOADED_LEVEL`, the level of ``sys.flags.optimize``): a file of another level
is never loaded in its place here.
"""

from __future__ import annotations

import errno
import os
from functools import lru_cache
from importlib.machinery import EXTENSION_SUFFIXES, all_suffixes
from importlib.util import cache_from_source, source_hash
from pathlib import Path, PurePosixPath
from stat import S_ISDIR, S_ISREG

from certdp.core.exact_type import types_are

from .path_parts import plain_parts, suffix_and_stem
from .regular_file import NotRegularFile, read_regular, read_regular_status

__all__ = ["shadowing_files", "is_a", "AUDITED_LEVELS", "LOADED_LEVEL"]


# proof: begin shadowing
#: The optimisation levels of the cached files ``python``, ``python -O`` and ``python -OO``
#: load: what the audit checks (``-OOO`` loads ``opt-3`` files, which only its gate checks).
AUDITED_LEVELS = ("", 1, 2)
#: The level this process's source loader reads: ``None`` stands for ``cache_from_source``
#: called without ``optimization``, as ``SourceLoader.get_code`` calls it (the level of
#: ``sys.flags.optimize``, fixed at interpreter start): what the runtime gate checks.
LOADED_LEVEL = (None,)

#: The errors for which ``Path.is_file()`` (Python 3.11) answers ``False`` instead of raising.
_ABSENT = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


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


def _stale_pycs(package: Path, source: str, levels: tuple) -> list[str]:
    """The ``__pycache__`` files of the module file ``source`` at the optimisation ``levels``
    (:data:`AUDITED_LEVELS` or :data:`LOADED_LEVEL`) that Python may load in place of the
    source: an unchecked hash-based one (loaded without reading the source); a checked
    hash-based one whose recorded source hash is not that of the source (or whose source is
    not a regular file); a timestamp one whose recorded mtime and size match the source's (so
    Python loads it) but which was last written before the source was (its ``st_mtime_ns`` is
    smaller), so it may have been compiled from other text of the same size within the same
    second; and, conservatively, a cached path that exists but is not a regular file.  ``source`` is the string of a ``.py`` file's path below
    ``package``."""
    found = []
    for level in levels:  # label: pyc-level-each
        # computed at every call: cache_from_source reads interpreter state (the cache
        # tag, sys.pycache_prefix, sys.flags.optimize, importlib's own globals) that
        # Python's loader reads too
        if level is None:  # the loader's own call: no optimization given  # label: pyc-loaded
            cached = cache_from_source(source)  # label: pyc-path-loaded
        else:
            cached = cache_from_source(source, optimization=level)  # label: pyc-path
        if _stale_pyc(cached, source):  # label: pyc-levels
            found.append(str(PurePosixPath(Path(cached).relative_to(package).as_posix())))
    return found


@lru_cache(maxsize=1 << 14)  # label: candidates-cache
def _candidates(package: str, key: str, extension: tuple, suffixes: tuple):
    """The paths :func:`_shadows_of` tests for the package-relative ``key`` below the package
    folder ``package`` (a string), given the extension suffixes ``extension`` and all the
    loader suffixes ``suffixes``: ``None`` unless ``key`` names a ``.py`` file; else the
    string of the source's path, the path of the folder ``X`` beside ``X.py`` (``None`` for an
    ``__init__.py``), the pairs (path, suffix) of the files ``X/__init__`` + a loader suffix,
    and those of the files ``X`` + an extension suffix (for an ``__init__.py``: ``__init__``
    + an extension suffix beside it).  Paths are built as strings: ``os.path.join(package,
    *parts)`` is the text of ``Path(package).joinpath(*parts)`` for the parts of a
    ``PurePosixPath`` (split without ``pathlib`` for a plain key whose name neither starts
    nor ends with ``.``: :func:`plain_parts`, :func:`suffix_and_stem`).  A function of its
    arguments (strings and tuples of strings)."""
    parts = plain_parts(key)  # label: candidates-plain
    named = None if parts is None else suffix_and_stem(parts[-1])  # label: candidates-named
    if named is None:  # label: candidates-pathlib
        relative = PurePosixPath(key)
        parent, name = relative.parent.parts, relative.name
        name_suffix, stem = relative.suffix, relative.stem
    else:  # parent, name, suffix and stem as PurePosixPath(key) gives them
        parent, name = parts[:-1], parts[-1]
        name_suffix, stem = named
    if name_suffix != ".py":  # label: modules-only
        return None
    folder = os.path.join(package, *parent)  # label: folder-string
    source = os.path.join(folder, name)  # label: source-string
    if stem == "__init__":  # label: init-extension
        # the package folder is found first; inside it, __init__ with an extension suffix
        # is tried before __init__.py
        beside = tuple((os.path.join(folder, f"__init__{suffix}"), suffix) for suffix in extension)
        return source, None, (), beside
    directory = os.path.join(folder, stem)
    inits = tuple((os.path.join(directory, f"__init__{suffix}"), suffix) for suffix in suffixes)
    extensions = tuple((os.path.join(folder, f"{stem}{suffix}"), suffix) for suffix in extension)
    return source, directory, inits, extensions


def _shadows_of(
    package: Path, key: str, extension: tuple, suffixes: tuple, levels: tuple
) -> list[str]:
    """The package-relative files found that Python's path finder prefers to module ``key``
    (the candidates of :func:`_candidates`), for the extension suffixes ``extension``, the
    loader suffixes ``suffixes`` and the cached files of the optimisation ``levels``."""
    folder = str(package)  # str() may return a subclass: tested below with the rest
    exact = types_are((folder, key, *extension, *suffixes), str)  # label: candidates-exact
    candidates = _candidates if exact else _candidates.__wrapped__
    named = candidates(folder, key, extension, suffixes)  # label: candidates
    if named is None:
        return []
    source, directory, inits, extensions = named
    found = _stale_pycs(package, source, levels)  # label: pyc-every-module
    if directory is None:  # an __init__.py: __init__ + an extension suffix  # label: init-beside
        beside = [suffix for path, suffix in extensions if _may_be(path, S_ISREG)]
        return found + [f"{PurePosixPath(key).parent / ('__init__' + s)}" for s in beside]
    if _may_be(directory, S_ISDIR):  # label: package-first
        inside = [suffix for path, suffix in inits if _may_be(path, S_ISREG)]
        relative = PurePosixPath(key)
        found += [f"{relative.parent / relative.stem / ('__init__' + s)}" for s in inside]
    found_beside = (suffix for path, suffix in extensions if _may_be(path, S_ISREG))
    beside = list(found_beside)  # label: extension-next
    if beside:
        relative = PurePosixPath(key)
        found += [f"{relative.parent / (relative.stem + s)}" for s in beside]
    return found


def shadowing_files(package: Path, keys, levels: tuple = AUDITED_LEVELS) -> tuple[str, ...]:
    """Every file below ``package`` that Python would import in place of a ``.py`` file among
    the package-relative paths ``keys`` (other paths are ignored), sorted; cached files are
    checked at the optimisation ``levels``: :data:`AUDITED_LEVELS` (the default, the
    audit's) or :data:`LOADED_LEVEL` (the level this process loads).  The host's suffix
    lists are read once, as they are at the call."""
    extension, suffixes = tuple(EXTENSION_SUFFIXES), tuple(all_suffixes())  # label: suffixes
    levels = tuple(levels)  # label: levels
    shadows = (
        shadow for key in keys for shadow in _shadows_of(package, key, extension, suffixes, levels)
    )
    return tuple(sorted(set(shadows)))


# proof: end shadowing
