"""No SMT model imports ``certdp.prelude``.

A ledger row fingerprints its models and every package file they import (``model:`` keys,
found from the import statements); the prelude imports the whole public API, so one model
importing it added 25-28 files to each of 16 rows, and the runtime gate hashes every one at
a constructor's first call.  A model imports the modules it calls instead."""

import ast
from pathlib import Path

import certdp

PACKAGE = Path(certdp.__file__).resolve().parent


def model_files() -> list[Path]:
    """Every module of the package whose name says it is (part of) an SMT model."""
    return sorted(path for path in PACKAGE.rglob("*.py") if "smt" in path.name)


def prelude_imports(path: Path) -> list[int]:
    """The lines of ``path`` importing ``certdp.prelude``, absolutely or relatively."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            if any(alias.name.split(".")[:2] == ["certdp", "prelude"] for alias in node.names):
                found.append(node.lineno)
        elif isinstance(node, ast.ImportFrom):
            module = (node.module or "").split(".")
            names = {alias.name for alias in node.names}
            absolute = node.level == 0 and module[:2] == ["certdp", "prelude"]
            from_package = (node.level == 0 and module == ["certdp"]) or (
                node.level > 0 and module == [""]
            )
            relative = node.level > 0 and module[-1:] == ["prelude"]
            if absolute or relative or (from_package and "prelude" in names):
                found.append(node.lineno)
    return found


def test_the_models_are_found():
    names = {path.name for path in model_files()}
    assert "smt_model.py" in names and len(model_files()) >= 40


def test_no_model_imports_the_prelude():
    offending = {
        str(path.relative_to(PACKAGE)): lines
        for path in model_files()
        if (lines := prelude_imports(path))
    }
    assert offending == {}


def test_the_scan_sees_each_form_of_the_import(tmp_path):
    forms = [
        "def f():\n    import certdp.prelude as dp\n",
        "from certdp.prelude import t\n",
        "from certdp import prelude\n",
        "from ... import prelude\n",
        "from ...prelude import m\n",
    ]
    for text in forms:
        path = tmp_path / "smt_model.py"
        path.write_text(text, encoding="utf-8")
        assert prelude_imports(path) != [], text
    path.write_text("from certdp.core.domains import atom_domain\n", encoding="utf-8")
    assert prelude_imports(path) == []
