"""Referee refgate's findings against the cached-bytecode check, kept as regression tests
(gate.tex, Lemma [shadow]):

- F1: the cached bytecode of a vetted package ``__init__.py`` is checked too (it was never
  looked at: ``_shadows_of`` returned at ``init-extension`` first).
- F2: the flags are classified as CPython 3.11's ``_classify_pyc`` and
  ``SourceLoader.get_code`` do: a bit above the two lowest set, refused; bit 0 clear, a
  timestamp file whatever bit 1 (flags 2 included); bit 0 set, hash-based, bit 1 its
  ``check_source``.
- F3: a cached file that cannot be opened or read for a reason other than not being a
  regular file (permission denied, name too long, too many open files, ...) is what Python's
  loader passes over (it catches the ``OSError`` and compiles the source): not a shadow, and
  no exception leaves the gate.

The first three tests are the referee's reproducers (tests/audit/test_refgate_repro.py of the
``refgate`` worktree), run on a vetted copy of make_is_equal in a fresh process.
"""

from __future__ import annotations

import errno
import importlib.machinery
import importlib.util
import os
import py_compile
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from certdp.audit import regular_file
from certdp.audit.shadowing import shadowing_files

from .conftest import FOLDER
from .test_gate_shadowing import CALL, runtime

CODE = FOLDER / "make_is_equal.py"
INIT = FOLDER / "__init__.py"


# -- the referee's reproducers: the gate on a vetted copy ---------------------------------


def test_unchecked_pyc_of_a_vetted_package_init_is_reported(repo):
    """F1: an unchecked-hash pyc of is_equal/__init__.py that re-exports a halved map is
    loaded by Python; the gate must not call the constructor up to date."""
    assert runtime(repo)[:2] == ["up to date", "built 1"]
    init = repo / INIT
    edited = init.read_text() + (
        "\nfrom certdp.core.transformation import Transformation as _T\n"
        "_vetted = make_is_equal\n\n\n"
        "def make_is_equal(*args, **kwargs):\n"
        "    t = _vetted(*args, **kwargs)\n"
        "    return _T(t.input_domain, t.output_domain, t.function, t.input_metric,\n"
        "              t.output_metric, lambda d_in: d_in // 2)\n"
    )
    temp = repo / "edited_init.py"
    temp.write_text(edited)
    py_compile.compile(
        str(temp), cfile=importlib.util.cache_from_source(str(init)), dfile=str(init),
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH, doraise=True,
    )  # fmt: skip
    temp.unlink()
    state, built, *rest = runtime(repo)
    assert state == "outdated", (state, built, rest)
    assert "transformations/is_equal/__pycache__/__init__." in "\n".join(rest)


def test_flags_2_pyc_is_loaded_by_python_and_must_be_reported(repo):
    """F2: CPython 3.11 accepts flags 2 and, bit 0 clear, validates it as a timestamp pyc;
    written before the source (the pyc-older rule), it is reported as a flags-0 file is."""
    code = repo / CODE
    text = code.read_text()
    edited = text.replace("return d_in  # label: stability-map", "return d_in // 2")
    assert edited != text
    temp = repo / "edited_make_is_equal.py"
    temp.write_text(edited)
    cfile = importlib.util.cache_from_source(str(code))
    Path(cfile).parent.mkdir(exist_ok=True)
    py_compile.compile(str(temp), cfile=cfile, dfile=str(code), doraise=True)
    temp.unlink()
    data = bytearray(Path(cfile).read_bytes())
    st = os.stat(code)
    data[4:8] = (2).to_bytes(4, "little")
    data[8:12] = (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
    data[12:16] = (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    Path(cfile).write_bytes(bytes(data))
    older = st.st_mtime_ns - 10**6  # written "before" the source: the pyc-older rule, too
    os.utime(cfile, ns=(older, older))
    state, built, *rest = runtime(repo)
    assert state == "outdated", (state, built, rest)
    assert "transformations/is_equal/__pycache__/make_is_equal." in "\n".join(rest)


def test_unreadable_pyc_is_passed_over_by_python_so_the_gate_must_not_raise(repo):
    """F3: a __pycache__ the running user cannot read (another user's umask 077): Python's
    SourceLoader catches the OSError and compiles the source; the gate answers up to date
    (the branch before this fix let PermissionError leave every constructor call)."""
    assert runtime(repo)[:2] == ["up to date", "built 1"]  # writes __pycache__ as root
    shared = Path(tempfile.mkdtemp(prefix="refgate-perm-", dir="/tmp"))
    try:
        copy = shared / "repo"
        shutil.copytree(repo, copy, symlinks=True)
        for folder, _dirs, files in os.walk(shared):
            os.chmod(folder, 0o755)
            for name in files:
                os.chmod(os.path.join(folder, name), 0o644)
        cache = Path(importlib.util.cache_from_source(str(copy / CODE))).parent
        os.chmod(cache, 0o700)  # owner root: nobody cannot look inside
        done = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
             sys.executable, "-c", CALL],
            cwd=copy, env={"PYTHONPATH": str(copy / "src"), "PATH": "/usr/bin:/bin"},
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        out = done.stdout.split("\n")
        assert done.returncode == 0 and out[:2] == ["up to date", "built 1"], (
            out,
            done.stderr.splitlines()[-1:],
        )
    finally:
        shutil.rmtree(shared, ignore_errors=True)


# -- the check itself, against what Python's source loader does -----------------------------


def _loaded(source: Path, name: str) -> dict:
    """The namespace CPython's source loader builds for ``source`` (cached bytecode or not)."""
    namespace: dict = {}
    loader = importlib.machinery.SourceFileLoader(name, str(source))
    exec(loader.get_code(name), namespace)
    return namespace


def _name(pyc: str) -> str:
    return "__pycache__/" + Path(pyc).name


def test_unit_unchecked_pyc_of_a_package_init_is_reported(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    init = pkg / "__init__.py"
    init.write_text("X = 2\n")
    pyc = importlib.util.cache_from_source(str(init))
    py_compile.compile(
        str(init), cfile=pyc, doraise=True,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )  # fmt: skip
    init.write_text("X = 1\n")  # the vetted text
    assert _loaded(init, "pkg")["X"] == 2  # Python runs the stale bytecode
    assert shadowing_files(tmp_path, ["pkg/__init__.py"]) == ("pkg/" + _name(pyc),)


def _flagged(tmp_path: Path, flags: int) -> tuple[Path, str]:
    """A timestamp pyc of ``X = 2`` whose header is rewritten to ``flags``, with the mtime and
    size of the source (now ``X = 1``), written a second before the source."""
    source = tmp_path / "m.py"
    source.write_text("X = 2\n")
    pyc = importlib.util.cache_from_source(str(source))
    py_compile.compile(str(source), cfile=pyc, doraise=True)
    source.write_text("X = 1\n")  # same size
    status = os.stat(source)
    data = bytearray(Path(pyc).read_bytes())
    data[4:8] = flags.to_bytes(4, "little")
    data[8:12] = (int(status.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
    data[12:16] = (status.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    Path(pyc).write_bytes(bytes(data))
    older = status.st_mtime_ns - 10**9
    os.utime(pyc, ns=(older, older))
    return source, pyc


@pytest.mark.parametrize("flags", [0, 2])
def test_flags_with_bit_0_clear_are_timestamp_files_loaded_and_reported(tmp_path, flags):
    source, pyc = _flagged(tmp_path, flags)
    assert _loaded(source, "m")["X"] == 2  # Python validates it as a timestamp file
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(pyc),)
    newer = os.stat(source).st_mtime_ns + 10**9
    os.utime(pyc, ns=(newer, newer))  # written after the source: not reported, as for flags 0
    assert shadowing_files(tmp_path, ["m.py"]) == ()


@pytest.mark.parametrize("flags", [4, 5, 6, 7, 2**31])
def test_flags_with_a_higher_bit_are_refused_by_python_and_not_reported(tmp_path, flags):
    source, pyc = _flagged(tmp_path, flags)
    assert _loaded(source, "m")["X"] == 1  # _classify_pyc refused it: the source compiled
    assert shadowing_files(tmp_path, ["m.py"]) == ()


def test_flags_1_is_loaded_unread_and_3_checked_against_the_source(tmp_path):
    source, pyc = _flagged(tmp_path, 1)  # the recorded "hash" is not the source's
    assert _loaded(source, "m")["X"] == 2  # unchecked: loaded without reading the source
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(pyc),)
    source, pyc = _flagged(tmp_path, 3)
    assert _loaded(source, "m")["X"] == 1  # checked: the hash differs, the source compiled
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(pyc),)  # a differing hash: reported


def test_a_cached_path_too_long_to_open_is_passed_over(tmp_path):
    """ENAMETOOLONG on the cached path only: the source, the folder and extension names beside
    it fit in PATH_MAX, the optimisation-1 and -2 cached paths (3 characters longer than the
    extension name) do not.  Nothing is loadable there (Python's loader would catch the
    OSError and compile the source): no shadow, and nothing raised."""
    limit = os.pathconf(str(tmp_path), "PC_PATH_MAX")  # with the final NUL
    folder = tmp_path
    while len(str(folder)) + 1 + 200 + 40 < limit:
        folder = folder / ("d" * 200)
    longest_extension = max(importlib.machinery.EXTENSION_SUFFIXES, key=len)
    stem = "m" * (limit - 1 - len(longest_extension) - len(str(folder)) - 1)
    folder.mkdir(parents=True)
    source = folder / f"{stem}.py"
    source.write_text("X = 1\n")
    key = source.relative_to(tmp_path).as_posix()
    assert len(str(folder / f"{stem}{longest_extension}")) == limit - 1  # fits
    pyc = importlib.util.cache_from_source(str(source), optimization=1)
    os.mkdir(Path(pyc).parent)
    with pytest.raises(OSError) as error:
        open(pyc, "rb")
    assert error.value.errno == errno.ENAMETOOLONG
    assert shadowing_files(tmp_path, [key]) == ()


@pytest.mark.parametrize(
    "code", [errno.EACCES, errno.ENAMETOOLONG, errno.EMFILE, errno.EAGAIN, errno.EIO]
)
def test_an_os_error_of_opening_a_cached_file_is_no_shadow_and_raises_nothing(
    tmp_path, monkeypatch, code
):
    source, pyc = _flagged(tmp_path, 1)  # a shadow when it can be read
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(pyc),)
    real_open = os.open

    def failing_open(path, *args, **kwargs):
        if str(path).endswith(".pyc"):
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(regular_file.os, "open", failing_open)
    assert shadowing_files(tmp_path, ["m.py"]) == ()


def test_a_symbolic_link_at_the_cached_path_is_still_reported(tmp_path):
    """NotRegularFile stays reported (item pyc-not-regular), even when it leads nowhere."""
    source = tmp_path / "m.py"
    source.write_text("X = 1\n")
    pyc = importlib.util.cache_from_source(str(source))
    os.mkdir(Path(pyc).parent)
    os.symlink(tmp_path / "nothing.pyc", pyc)
    assert stat.S_ISLNK(os.lstat(pyc).st_mode)
    assert shadowing_files(tmp_path, ["m.py"]) == (_name(pyc),)
