"""The optimisation level of the cached files checked (gate.tex, Lemma [shadow]): the runtime
gate checks the cached file at the path ``cache_from_source(source)`` gives, the one Python's
source loader reads in this process (the level of ``sys.flags.optimize``); the audit, which
speaks for any process, checks the levels "", 1 and 2.  So a stale file at another level than
the loaded one is ignored by the gate and reported by the audit, and the same file at the
loaded level is refused by the gate, in a plain process and in one run with ``-O``."""

from __future__ import annotations

import os
import py_compile
import subprocess
import sys
from importlib.util import cache_from_source
from pathlib import Path

import pytest

from certdp.audit.shadowing import AUDITED_LEVELS, LOADED_LEVEL, shadowing_files

from .conftest import FOLDER, audit, checks
from .test_gate_shadowing import CALL, runtime
from .test_gate_shadowing_pyc_regular import STATUS, _within

CODE = FOLDER / "make_is_equal.py"
PYC = "transformations/is_equal/__pycache__/make_is_equal"
TAG = sys.implementation.cache_tag


def _stale(source: Path, cached: str) -> None:
    """An unchecked hash-based compilation of other text than ``source``'s at ``cached``."""
    other = source.with_name("other_" + source.name)
    other.write_text(source.read_text().replace("return d_in", "return d_in // 2") + "\nY = 2\n")
    Path(cached).parent.mkdir(exist_ok=True)
    py_compile.compile(
        str(other), cfile=cached, dfile=str(source), doraise=True,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )  # fmt: skip
    other.unlink()


def _plant(kind: str, source: Path, cached: str, tmp: Path) -> None:
    """A stale file, a FIFO or a symbolic link to stale bytecode at ``cached`` (replacing
    whatever Python wrote there)."""
    Path(cached).parent.mkdir(exist_ok=True)
    if os.path.lexists(cached):
        os.unlink(cached)
    if kind == "stale":
        _stale(source, cached)
    elif kind == "fifo":
        os.mkfifo(cached)
    else:  # a symbolic link to stale bytecode elsewhere
        target = tmp / "elsewhere.pyc"
        _stale(source, str(target))
        os.symlink(target, cached)


# -- shadowing_files: the levels asked for, and no other ------------------------------------


def test_this_process_loads_level_zero():
    """The premise of the cases below: pytest runs without ``-O``."""
    assert sys.flags.optimize == 0
    assert LOADED_LEVEL == (None,) and AUDITED_LEVELS == ("", 1, 2)


@pytest.mark.parametrize("kind", ["stale", "fifo", "link"])
@pytest.mark.parametrize("level", [1, 2])
def test_a_file_at_a_level_not_loaded_here_is_reported_for_every_level_only(tmp_path, kind, level):
    source = tmp_path / "m.py"
    source.write_text("X = 1\n")
    cached = cache_from_source(str(source), optimization=level)
    _plant(kind, source, cached, tmp_path)
    name = f"__pycache__/m.{TAG}.opt-{level}.pyc"
    assert shadowing_files(tmp_path, ["m.py"]) == (name,)  # the audit's default
    assert shadowing_files(tmp_path, ["m.py"], AUDITED_LEVELS) == (name,)
    assert shadowing_files(tmp_path, ["m.py"], LOADED_LEVEL) == ()


@pytest.mark.parametrize("kind", ["stale", "fifo", "link"])
def test_a_file_at_the_loaded_level_is_reported_for_both(tmp_path, kind):
    source = tmp_path / "m.py"
    source.write_text("X = 1\n")
    cached = cache_from_source(str(source))
    _plant(kind, source, cached, tmp_path)
    name = f"__pycache__/m.{TAG}.pyc"
    assert shadowing_files(tmp_path, ["m.py"], LOADED_LEVEL) == (name,)
    assert shadowing_files(tmp_path, ["m.py"], AUDITED_LEVELS) == (name,)


def test_the_loaded_level_follows_sys_flags_optimize(tmp_path, monkeypatch):
    """``cache_from_source`` without ``optimization`` reads ``sys.flags.optimize`` when
    called, as the loader's own call does: with it at 1 the opt-1 file is the loaded one."""
    source = tmp_path / "m.py"
    source.write_text("X = 1\n")
    _stale(source, cache_from_source(str(source), optimization=1))

    class Flags:
        optimize = 1

    monkeypatch.setattr(sys, "flags", Flags())
    assert shadowing_files(tmp_path, ["m.py"], LOADED_LEVEL) == (f"__pycache__/m.{TAG}.opt-1.pyc",)


# -- the gate and the audit, on a vetted copy, in a fresh process ---------------------------


def _optimised(root: Path, script: str) -> list[str]:
    """The lines ``script`` prints, run by ``python -O`` on the copy ``root``."""
    done = subprocess.run(
        [sys.executable, "-O", "-c", script],
        cwd=root,
        env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-800:]
    return done.stdout.split("\n")


@pytest.mark.parametrize("kind", ["stale", "fifo", "link"])
def test_gate_ignores_an_opt1_file_a_plain_process_never_loads_and_the_audit_reports_it(
    repo, tmp_path, kind
):
    code = repo / CODE
    _plant(kind, code, cache_from_source(str(code), optimization=1), tmp_path)
    assert _within(repo, CALL)[:2] == ["up to date", "built 1"]
    lines = _within(repo, STATUS)
    assert lines[0] == "outdated", lines
    assert f"{PYC}.{TAG}.opt-1.pyc" in lines[1], lines
    if kind == "stale":  # and certdp audit (a fresh process too) says so
        _, report = audit(repo, "make_is_equal")
        assert checks(report)["freshness"] == "outdated"
        (row,) = report["constructors"]
        assert f"{PYC}.{TAG}.opt-1.pyc" in row["checks"]["freshness"]["detail"]


@pytest.mark.parametrize("kind", ["stale", "link"])
def test_gate_refuses_a_stale_file_at_the_level_it_loads(repo, tmp_path, kind):
    code = repo / CODE
    _plant(kind, code, cache_from_source(str(code)), tmp_path)
    state, refusal, message = runtime(repo)
    assert state == "outdated", (state, refusal, message)
    assert refusal == "FeatureNotEnabledError features"
    assert f"{PYC}.{TAG}.pyc" in message


def test_gate_under_python_O_refuses_a_stale_opt1_file(repo):
    code = repo / CODE
    _stale(code, cache_from_source(str(code), optimization=1))
    state, refusal, message = _optimised(repo, CALL)[:3]
    assert state == "outdated", (state, refusal, message)
    assert refusal == "FeatureNotEnabledError features"
    assert f"{PYC}.{TAG}.opt-1.pyc" in message


def test_gate_under_python_O_ignores_a_stale_level_zero_file(repo):
    code = repo / CODE
    _stale(code, cache_from_source(str(code)))
    assert _optimised(repo, CALL)[:2] == ["up to date", "built 1"]


def test_the_full_comparison_too_passes_over_a_stale_file_of_another_level(repo):
    # a comment changes the module's bytes, not its fingerprints: the gate takes the full
    # comparison, whose shadowing check must also test only the loaded level
    code = repo / CODE
    code.write_text(code.read_text() + "\n# a comment\n")
    _stale(code, cache_from_source(str(code), optimization=1))
    assert _within(repo, CALL)[:2] == ["up to date", "built 1"]
