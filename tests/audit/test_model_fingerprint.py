"""The SMT models' fingerprints cover every package file a model imports (referee 18): an edit
of a shared model helper (transformations/_cast/cast_smt.py, combinators/_support/
conversion_smt.py) changes both the vetting ledger's fingerprints (so the row is OUTDATED) and
the `certdp prove` cache key (so the cached result is stale)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from certdp._imported import imported_files
from certdp.audit.discovery import discover
from certdp.audit.ledger import proof_fingerprints
from tests.prove.edited import PACKAGE

EDITS = [
    (
        "make_cast",
        "transformations/_cast/cast_smt.py",
        "if stated != d or type(stated) is not int:",
        "if False:",
    ),
    (
        "make_pureDP_to_zCDP",
        "combinators/_support/conversion_smt.py",
        "CONVERSION_D_INS = (1, 2, 3, 7, 10, 100, 0.5, Fraction(1, 3), 1000, 10**400)",
        "CONVERSION_D_INS = (1,)",
    ),
    (
        "make_zCDP_to_approxDP",
        "combinators/_support/chain_smt.py",
        '"""',
        '"""A comment.\n',
    ),
]


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "certdp"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _edit(copy: Path, relative: str, old: str, new: str) -> None:
    path = copy / relative
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def _ledger_fingerprints(copy: Path, name: str):
    (folder,) = [c for c in discover(copy) if c.name == name]
    return proof_fingerprints(folder)


@pytest.mark.parametrize("name, relative, old, new", EDITS)
def test_weakening_the_folded_model_code_outdates_the_proof(tmp_path, name, relative, old, new):
    copy = _copy(tmp_path)
    before = _ledger_fingerprints(copy, name)
    assert f"model:{relative}" in before[0]
    _edit(copy, relative, old, new)
    after = _ledger_fingerprints(copy, name)
    assert before != after
    assert before[0][f"model:{relative}"] != after[0][f"model:{relative}"]


_KEY = """
import sys
from certdp.prove.engine import fingerprint, known_constructors
assert __import__("certdp").__file__.startswith(sys.argv[2])
print(fingerprint(sys.argv[1], known_constructors()[sys.argv[1]]))
"""


def _prove_key(copy: Path, name: str) -> str:
    environment = dict(os.environ, PYTHONPATH=str(copy.parent), PYTHONDONTWRITEBYTECODE="1")
    finished = subprocess.run(
        [sys.executable, "-c", _KEY, name, str(copy.parent)],
        capture_output=True, text=True, env=environment, timeout=300,
    )  # fmt: skip
    assert finished.returncode == 0, finished.stderr[-2000:]
    return finished.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("name, relative, old, new", EDITS[:2])
def test_editing_a_model_helper_misses_the_prove_cache(tmp_path, name, relative, old, new):
    copy = _copy(tmp_path)
    before = _prove_key(copy, name)
    _edit(copy, relative, old, new)
    assert _prove_key(copy, name) != before


def test_imported_files_follow_function_level_and_relative_imports(tmp_path):
    package = tmp_path / "certdp"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "model.py").write_text(
        "def f():\n    from .helper import g\n    from certdp.other import h\n"
    )
    (package / "sub" / "helper.py").write_text("from ..deep import leaf\n")
    (package / "other.py").write_text("")
    (package / "deep.py").write_text("import os\n")
    (package / "unrelated.py").write_text("")
    found = {
        str(p.relative_to(package.resolve()))
        for p in imported_files(package / "sub" / "model.py", package)
    }
    assert found == {
        "__init__.py",
        "sub/__init__.py",
        "sub/model.py",
        "sub/helper.py",
        "other.py",
        "deep.py",
    }
