"""What the audit sees of the code ``import certdp.prelude`` runs (docs/guide/features.rst,
"What the check compares, and what it does not").

A row fingerprints its proven ranges, and whole files only for its SMT models, what they import
and the packages' ``__init__.py`` (``model:`` and ``init:`` keys, syntax digests of the whole
module).  A module-level statement outside every proven range is therefore seen by the audit
exactly when some row fingerprints its file whole.  These tests pin that: every constructor's
module and folder ``__init__.py`` the prelude loads is fingerprinted whole by some row, and a
statement appended to one makes that row outdated."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from certdp.audit.ledger import INIT_PREFIX, MODEL_PREFIX, read_ledger
from certdp.audit.status import package_root

from .conftest import run

LISTING = """
import os, sys, certdp.prelude
root = {root!r}
for module in list(sys.modules.values()):
    path = getattr(module, '__file__', None) or ''
    if path.startswith(root + os.sep):
        print(os.path.relpath(path, root))
"""


def loaded_at_import(package: Path) -> set[str]:
    """The package-relative files a fresh interpreter has loaded after ``import certdp.prelude``."""
    result = subprocess.run(
        [sys.executable, "-c", LISTING.format(root=str(package))],
        env=dict(os.environ, PYTHONPATH=str(package.parent)),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return set(result.stdout.split())


def fingerprinted_whole(package: Path) -> set[str]:
    """The files some row of the package's ledger fingerprints whole (model: and init: keys)."""
    vettings = read_ledger(package)
    return {
        key.split(":", 1)[1]
        for name in vettings
        for key in vettings[name].fingerprints
        if key.startswith((MODEL_PREFIX, INIT_PREFIX))
    }


def test_every_constructor_module_the_prelude_loads_is_fingerprinted_whole_by_some_row():
    package = package_root().resolve()
    loaded = loaded_at_import(package)
    constructors = {
        path
        for path in loaded
        if Path(path).name.startswith("make_") or Path(path).name == "__init__.py"
    }
    assert len(constructors) > 100  # the listing found the constructor modules
    unseen = constructors - fingerprinted_whole(package)
    # the user-callback constructors have no proof (their map is the user's), so no row
    assert unseen <= {
        "examples/__init__.py",
        "measurements/user_measurement/__init__.py",
        "transformations/user_transformation/__init__.py",
    }, sorted(unseen)


def test_a_statement_appended_to_a_module_a_row_fingerprints_whole_outdates_that_row(repo):
    module = repo / "src/certdp/transformations/is_equal/make_is_equal.py"
    assert "transformations/is_equal/make_is_equal.py" in fingerprinted_whole(
        repo / "src/certdp"
    )
    assert run(repo, "audit", "make_is_equal").returncode == 0
    # outside every proven range: no range fingerprint changes, the whole-file one does
    module.write_text(module.read_text() + "\nimport sys as _sys\n_sys.modules.get('x')\n")
    result = run(repo, "audit", "make_is_equal")
    assert result.returncode != 0
    assert "model:transformations/is_equal/make_is_equal.py" in result.stdout, result.stdout
