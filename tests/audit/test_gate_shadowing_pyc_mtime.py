"""A timestamp ``__pycache__`` file compiled from other text of the same size, the source
restored within the same second (referee, session 11): Python loads it (its header records
the source's whole-second mtime and size), so the gate and the audit must call the proof
outdated, naming it; it is recognised by being older (``st_mtime_ns``) than its source."""

from __future__ import annotations

import os
import py_compile
import time
from importlib.util import cache_from_source
from pathlib import Path

from certdp.audit.shadowing import shadowing_files

from .conftest import FOLDER, audit, checks
from .test_gate_shadowing import runtime

CODE = FOLDER / "make_is_equal.py"
WHEN = 1_700_000_000_500_000_000
PYC = "transformations/is_equal/__pycache__/make_is_equal"


def _edit_compile_restore(root: Path) -> None:
    """Edit ``==`` to ``!=`` (same size), compile as ``import`` does (timestamp mode), then
    restore the vetted text a few milliseconds later (a later tick of the file system's
    clock) but within the same second, as an editor save + test run + ``git checkout`` can."""
    code = root / CODE
    vetted = code.read_text()
    edited = vetted.replace("bool(element == value)", "bool(element != value)")
    assert len(edited) == len(vetted) and edited != vetted
    for _ in range(50):
        while time.time() % 1 > 0.5:
            time.sleep(0.01)
        second = int(time.time())
        code.write_text(edited)
        py_compile.compile(str(code), cfile=cache_from_source(str(code)), doraise=True)
        time.sleep(0.05)
        code.write_text(vetted)
        if int(code.stat().st_mtime) == second == int(time.time()):
            break
    else:
        raise AssertionError("could not edit, compile and restore within one second")
    pyc = cache_from_source(str(code))
    # Python would load this file: its header records the restored source's second and size
    header = Path(pyc).read_bytes()[:16]
    assert int.from_bytes(header[4:8], "little") == 0
    assert int.from_bytes(header[8:12], "little") == int(code.stat().st_mtime)
    assert int.from_bytes(header[12:16], "little") == code.stat().st_size
    assert os.stat(pyc).st_mtime_ns < code.stat().st_mtime_ns


def test_a_same_second_same_size_edit_is_refused_by_the_gate_naming_the_pyc(repo):
    _edit_compile_restore(repo)
    state, refusal, message = runtime(repo)
    assert state == "outdated", (state, refusal, message)
    assert refusal == "FeatureNotEnabledError features"
    assert PYC in message and "make_is_equal requires 'contrib'" in message


def test_a_same_second_same_size_edit_fails_the_audit(repo):
    _edit_compile_restore(repo)
    code, report = audit(repo, "make_is_equal")
    assert checks(report)["freshness"] == "outdated", report["constructors"][0]["checks"]
    assert PYC in str(report["constructors"][0]["checks"])


def test_pycs_written_by_import_are_not_shadows(repo):
    """The first run writes __pycache__ files as import does; the second reads them."""
    assert runtime(repo)[:2] == ["up to date", "built 1"]
    assert Path(cache_from_source(str(repo / CODE))).is_file()
    assert runtime(repo)[:2] == ["up to date", "built 1"]


def _module(tmp_path: Path, mode=py_compile.PycInvalidationMode.TIMESTAMP) -> tuple[Path, str]:
    source = tmp_path / "m.py"
    source.write_text("X = 1\n")
    os.utime(source, ns=(WHEN, WHEN))  # half a second into a whole second
    pyc = cache_from_source(str(source))
    py_compile.compile(str(source), cfile=pyc, invalidation_mode=mode, doraise=True)
    return source, pyc


def test_a_timestamp_pyc_older_than_its_source_with_a_matching_header_is_a_shadow(tmp_path):
    source, pyc = _module(tmp_path)
    assert shadowing_files(tmp_path, ["m.py"]) == ()  # written now, after WHEN
    os.utime(pyc, ns=(WHEN - 1, WHEN - 1))  # written 1 ns before the source, same second
    assert shadowing_files(tmp_path, ["m.py"]) == ("__pycache__/" + Path(pyc).name,)
    os.utime(pyc, ns=(WHEN, WHEN))  # not older: not caught (the documented limit)
    assert shadowing_files(tmp_path, ["m.py"]) == ()


def test_a_timestamp_pyc_whose_header_does_not_match_is_not_a_shadow(tmp_path):
    """Python recompiles such a file, so it runs the source."""
    source, pyc = _module(tmp_path)
    source.write_text("X = 22\n")  # another size
    then = os.stat(pyc).st_mtime_ns - 10**9
    os.utime(pyc, ns=(then, then))
    assert shadowing_files(tmp_path, ["m.py"]) == ()


def test_an_unchecked_hash_pyc_is_a_shadow_even_of_the_same_text(tmp_path):
    _, pyc = _module(tmp_path, py_compile.PycInvalidationMode.UNCHECKED_HASH)
    assert shadowing_files(tmp_path, ["m.py"]) == ("__pycache__/" + Path(pyc).name,)


def test_a_checked_hash_pyc_is_a_shadow_only_when_its_hash_differs(tmp_path):
    source, pyc = _module(tmp_path, py_compile.PycInvalidationMode.CHECKED_HASH)
    assert shadowing_files(tmp_path, ["m.py"]) == ()
    source.write_text("X = 2\n")
    assert shadowing_files(tmp_path, ["m.py"]) == ("__pycache__/" + Path(pyc).name,)
