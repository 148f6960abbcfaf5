"""A candidate shadow the gate cannot ``stat`` (permission denied, a name too long) counts as
found: the status is outdated, the gate refuses the constructor without ``contrib`` with its
typed error, and no untyped ``OSError`` escapes (Lemma [shadow] of audit/gate.tex).  Before,
``is_a`` re-raised such an error out of the gate.  The machine runs the tests as root, so a
denied ``stat`` is simulated by wrapping ``os.stat``; a name too long is real."""

import errno
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from certdp.audit import shadowing
from certdp.audit.shadowing import shadowing_files

from .conftest import run_script

#: ``os.stat`` raising ``PermissionError`` for every extension-module path, as a folder the
#: process may list but whose entries it may not ``stat`` would.
DENY = """
import errno, os
from importlib.machinery import EXTENSION_SUFFIXES
_stat = os.stat
def stat(path, *args, **kwargs):
    if str(path).endswith(tuple(EXTENSION_SUFFIXES)):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))
    return _stat(path, *args, **kwargs)
os.stat = stat
"""


def denying(monkeypatch):
    namespace = {}
    exec(DENY.replace("os.stat = stat", ""), namespace)
    monkeypatch.setattr(shadowing.os, "stat", namespace["stat"])


def test_a_denied_stat_of_an_extension_path_is_reported(tmp_path, monkeypatch):
    (tmp_path / "make_x.py").write_text("x = 1\n")
    denying(monkeypatch)
    found = shadowing_files(tmp_path, ["make_x.py"])
    assert set(found) == {f"make_x{suffix}" for suffix in EXTENSION_SUFFIXES}


def test_a_name_too_long_is_reported(tmp_path):
    stem = "m" * (255 - len(".py"))  # the longest name whose source fits
    (tmp_path / f"{stem}.py").write_text("x = 1\n")
    with pytest.raises(OSError) as caught:
        os.stat(tmp_path / f"{stem}{EXTENSION_SUFFIXES[0]}")
    assert caught.value.errno == errno.ENAMETOOLONG
    found = shadowing_files(tmp_path, [f"{stem}.py"])
    assert f"{stem}{EXTENSION_SUFFIXES[0]}" in found


def test_an_ordinary_module_still_has_no_shadow(tmp_path):
    (tmp_path / "make_x.py").write_text("x = 1\n")
    assert shadowing_files(tmp_path, ["make_x.py"]) == ()


CALL = (
    DENY
    + """
import certdp.prelude as dp
from certdp.audit import status
print(status.vetting_status("make_is_equal").state)
space = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
try:
    dp.t.make_is_equal(*space, 3)
except Exception as error:
    print(type(error).__name__, getattr(error, "parameter", None))
else:
    print("built")
"""
)


def test_the_gate_refuses_typed_when_it_cannot_stat(repo: Path):
    state, refusal = run_script(repo, CALL, 2)
    assert (state, refusal) == ("outdated", "FeatureNotEnabledError features")
