"""Cached bytecode files and sources that are not regular files (gate.tex, Lemma [shadow],
item "anything that is not a regular file", and Lemma [regular-file reader]): the shadowing
check reads every ``__pycache__`` file and every source through the regular-file reader, so a
FIFO there never blocks the gate or the audit, and a cached path that exists but is not a
regular file (a symbolic link, which Python's loader follows; a FIFO) is reported."""

from __future__ import annotations

import importlib.machinery
import os
import py_compile
import subprocess
import sys
from importlib.util import cache_from_source
from pathlib import Path

import pytest

from certdp.audit.shadowing import shadowing_files

from .conftest import FOLDER
from .test_gate_regular_files import deadline  # noqa: F401  (a fixture)
from .test_gate_shadowing import CALL, runtime

CODE = FOLDER / "make_is_equal.py"
PYC = "transformations/is_equal/__pycache__/make_is_equal"

#: The audit's status of make_is_equal, computed without importing the constructor.
STATUS = """
from certdp.audit.discovery import package_root, discover
from certdp.audit.ledger import Ledger
from certdp.audit.status import status_of
package = package_root()
(c,) = [c for c in discover(package) if c.key == "transformations/is_equal/make_is_equal"]
status = status_of(c, Ledger(package))
print(status.state)
print(status)
"""


def _within(root: Path, script: str, seconds: float = 90) -> list[str]:
    """The lines ``script`` prints, run by a fresh interpreter on the copy ``root``;
    ``["hang"]`` when it does not end within ``seconds``."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=root,
            env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=seconds,
        )
    except subprocess.TimeoutExpired:
        return ["hang"]
    assert done.returncode == 0, done.stderr[-800:]
    return done.stdout.split("\n")


def _module(tmp_path: Path, text: str = "X = 1\n", mode=None) -> tuple[Path, str]:
    source = tmp_path / "m.py"
    source.write_text(text)
    pyc = cache_from_source(str(source))
    mode = mode or py_compile.PycInvalidationMode.TIMESTAMP
    py_compile.compile(str(source), cfile=pyc, invalidation_mode=mode, doraise=True)
    return source, pyc


def _name(pyc: str) -> str:
    return "__pycache__/" + Path(pyc).name


# -- the gate and the audit, on a vetted copy, in a fresh process --------------------------


def test_gate_a_fifo_at_a_cached_bytecode_path_of_another_level_is_passed_over_at_once(repo):
    """The optimisation-1 path: the interpreter running the gate (no ``-O``) never opens it,
    so the gate does not check it (nor block on it: before, ``open(cached, "rb")`` blocked
    here for ever); the audit, which speaks for ``python -O`` too, reports it at once."""
    assert runtime(repo)[:2] == ["up to date", "built 1"]
    fifo = cache_from_source(str(repo / CODE), optimization=1)
    os.mkfifo(fifo)
    assert _within(repo, CALL)[:2] == ["up to date", "built 1"]
    lines = _within(repo, STATUS)
    assert lines[0] == "outdated", lines
    assert f"{PYC}.{sys.implementation.cache_tag}.opt-1.pyc" in lines[1], lines


def test_audit_a_fifo_at_the_cached_bytecode_path_python_reads_is_reported_at_once(repo):
    """The level-0 path, the one ``import`` reads (and would block on): the audit's status,
    which imports no constructor, reports it without blocking."""
    fifo = Path(cache_from_source(str(repo / CODE)))
    fifo.parent.mkdir(exist_ok=True)
    if fifo.exists():
        fifo.unlink()
    os.mkfifo(fifo)
    lines = _within(repo, STATUS)
    assert lines[0] == "outdated", lines
    assert f"{PYC}.{sys.implementation.cache_tag}.pyc" in lines[1], lines


def _edited_unchecked_pyc(root: Path, where: Path) -> None:
    """Bytecode of make_is_equal.py with its map halved, as an unchecked hash-based file at
    ``where`` (outside ``__pycache__``), and the level-0 cached path a symbolic link to it."""
    code = root / CODE
    text = code.read_text()
    edited = text.replace("return d_in  # label: stability-map", "return d_in // 2")
    assert edited != text
    temp = root / "edited_make_is_equal.py"
    temp.write_text(edited)
    py_compile.compile(
        str(temp), cfile=str(where), dfile=str(code), doraise=True,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )  # fmt: skip
    temp.unlink()
    cached = Path(cache_from_source(str(code)))
    cached.parent.mkdir(exist_ok=True)
    if cached.exists():
        cached.unlink()
    cached.symlink_to(where)


def test_gate_a_symbolic_link_to_stale_bytecode_is_refused_naming_it(repo):
    _edited_unchecked_pyc(repo, repo / "elsewhere.pyc")
    state, refusal, message = runtime(repo)
    assert state == "outdated", (state, refusal, message)
    assert refusal == "FeatureNotEnabledError features"
    assert f"{PYC}.{sys.implementation.cache_tag}.pyc" in message


def test_audit_a_symbolic_link_to_stale_bytecode_is_outdated(repo):
    _edited_unchecked_pyc(repo, repo / "elsewhere.pyc")
    lines = _within(repo, STATUS)
    assert lines[0] == "outdated" and PYC in lines[1], lines


# -- the check itself ---------------------------------------------------------------------


def test_python_loads_bytecode_through_a_symbolic_link_and_the_check_reports_it(tmp_path):
    """What the conservative rule rests on: CPython's source loader follows a link at the
    cached path and runs what it finds there."""
    source, pyc = _module(tmp_path, "X = 2\n", py_compile.PycInvalidationMode.UNCHECKED_HASH)
    target = tmp_path / "elsewhere.pyc"
    os.replace(pyc, target)
    os.symlink(target, pyc)
    source.write_text("X = 1\n")  # the vetted text; the linked bytecode says X = 2
    loader = importlib.machinery.SourceFileLoader("m_linked", str(source))
    namespace: dict = {}
    exec(loader.get_code("m_linked"), namespace)
    assert namespace["X"] == 2  # Python ran the linked bytecode
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(pyc),)


def test_a_link_at_a_cached_path_is_reported_even_to_matching_bytecode(tmp_path):
    """A link is reported whatever it leads to (to the source's own checked-hash bytecode,
    which Python would accept, and to nothing at all)."""
    source, pyc = _module(tmp_path, mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    assert shadowing_files(tmp_path, ["m.py"]) == ()  # the regular file matches
    target = tmp_path / "same.pyc"
    os.replace(pyc, target)
    os.symlink(target, pyc)
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(pyc),)
    os.unlink(pyc)
    os.symlink(tmp_path / "nothing.pyc", pyc)  # dangling
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(pyc),)


@pytest.mark.usefixtures("deadline")
@pytest.mark.parametrize("level", ["", 1, 2])
def test_a_fifo_or_folder_at_any_cached_path_is_reported_without_blocking(tmp_path, level):
    source = tmp_path / "m.py"
    source.write_text("X = 1\n")
    fifo = cache_from_source(str(source), optimization=level)
    Path(fifo).parent.mkdir()
    os.mkfifo(fifo)
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(fifo),)
    os.unlink(fifo)
    os.mkdir(fifo)
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(fifo),)


@pytest.mark.usefixtures("deadline")
def test_a_checked_hash_pyc_whose_source_is_a_fifo_is_reported_without_blocking(tmp_path):
    """The hash check reads the source with the regular-file reader: a FIFO there (which
    ``open(source, "rb")`` waited on for ever) counts as a source the bytecode may not be."""
    source, pyc = _module(tmp_path, mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    assert shadowing_files(tmp_path, ["m.py"]) == ()
    source.unlink()
    os.mkfifo(source)
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(pyc),)


def test_a_checked_hash_pyc_whose_source_is_a_link_is_reported(tmp_path):
    source, pyc = _module(tmp_path, mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    real = tmp_path / "real.py"
    os.replace(source, real)
    os.symlink(real, source)  # the same bytes, through a link
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(pyc),)


def test_the_timestamp_check_takes_the_status_of_the_file_whose_header_it_read(
    tmp_path, monkeypatch
):
    """The header and ``st_mtime_ns`` come from one descriptor: a newer regular file renamed
    over the cached path after the opening changes neither (a check that ``stat``ed the path
    again would take the newcomer's time and miss the stale file)."""
    from certdp.audit import regular_file

    when = 1_700_000_000_500_000_000
    source, pyc = _module(tmp_path)
    os.utime(source, ns=(when, when))
    py_compile.compile(str(source), cfile=pyc, doraise=True)  # header: the source's second
    os.utime(pyc, ns=(when - 1, when - 1))  # written just before the source: a shadow
    newer = tmp_path / "newer.pyc"
    newer.write_bytes(Path(pyc).read_bytes())
    os.utime(newer, ns=(when + 1, when + 1))  # would not be a shadow
    real_fstat = os.fstat

    def fstat_after_a_rename(descriptor):
        os.replace(newer, pyc)  # the name now leads to the newer file
        monkeypatch.setattr(regular_file.os, "fstat", real_fstat)
        return real_fstat(descriptor)

    monkeypatch.setattr(regular_file.os, "fstat", fstat_after_a_rename)
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(pyc),)
    assert os.stat(pyc).st_mtime_ns == when + 1  # the rename did happen
    assert shadowing_files(tmp_path, ["m.py"]) == ()  # and the newer file is no shadow
