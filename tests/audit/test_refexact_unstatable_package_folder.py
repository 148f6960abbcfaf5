"""refexact F2: gate.tex Lemma [shadow] said a candidate path P whose stat fails otherwise than
"no such file" counts as found, and listed "the package X/" among the candidates.  The code
(package-first) reports only X/'s __init__ files, as Python's path finder does; the lemma now
says so.  These tests pin what the corrected sentence states.

(Copied from the referee's worktree, where it asserted the old sentence; turned to assert the
corrected one, since the finding's fix belongs in the text.)"""

import errno
import os

from certdp.audit import shadowing
from certdp.audit.shadowing import shadowing_files


def _stat_with(monkeypatch, folder: str, inside_errno: int | None):
    """os.stat: EIO for ``folder``; for paths inside it, ``inside_errno`` (None: the real one)."""
    real = os.stat

    def stat(path, *args, **kwargs):
        path = str(path)
        if path == folder:
            raise OSError(errno.EIO, "Input/output error", path)
        if inside_errno is not None and path.startswith(folder + os.sep):
            raise OSError(inside_errno, os.strerror(inside_errno), path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(shadowing.os, "stat", stat)


def test_an_unexaminable_package_folder_is_not_itself_reported(tmp_path, monkeypatch):
    (tmp_path / "make_x.py").write_text("x = 1\n")
    _stat_with(monkeypatch, str(tmp_path / "make_x"), errno.ENOENT)
    # X/ unexaminable, every X/__init__<s> absent: nothing reported, as Python imports make_x.py
    assert shadowing_files(tmp_path, ["make_x.py"]) == ()


def test_an_unexaminable_package_folder_makes_its_init_files_tested(tmp_path, monkeypatch):
    (tmp_path / "make_x.py").write_text("x = 1\n")
    (tmp_path / "make_x").mkdir()
    (tmp_path / "make_x" / "__init__.py").write_text("")
    _stat_with(monkeypatch, str(tmp_path / "make_x"), None)
    # X/ unexaminable but X/__init__.py a file: reported
    assert "make_x/__init__.py" in shadowing_files(tmp_path, ["make_x.py"])


def test_an_unexaminable_init_inside_an_unexaminable_folder_is_reported(tmp_path, monkeypatch):
    (tmp_path / "make_x.py").write_text("x = 1\n")
    _stat_with(monkeypatch, str(tmp_path / "make_x"), errno.EACCES)
    # the X/__init__<s> candidates cannot be examined either: each counts as found
    assert "make_x/__init__.py" in shadowing_files(tmp_path, ["make_x.py"])
