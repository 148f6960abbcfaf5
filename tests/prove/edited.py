"""Prove a name's obligations against an edited copy of the code.

:func:`prove_edited` copies the package into a temporary folder, applies text edits to the
code the constructor runs, and runs the prove engine's own step (``engine._prove_shard``, what
``certdp prove NAME`` runs for a name's own obligations) in a fresh interpreter that imports
the copy.  It returns the engine's summary (``status``, ``detail``, ``counterexamples``...), so
a test can assert that an unsound edit of the code is refuted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import certdp

PACKAGE = Path(certdp.__file__).resolve().parent

_SCRIPT = """
import json, sys
import certdp
from certdp.prove import engine
name, timeout, select, expected_root = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
assert certdp.__file__.startswith(expected_root), certdp.__file__
module = engine.known_constructors()[name]
if select:
    import importlib
    from certdp.core.features import enable_features
    enable_features("contrib")
    chosen = [o for o in importlib.import_module(module).obligations([name]) if select in o.claim]
    assert chosen, "no obligation selected"
    outcomes = [engine.solve(o, timeout) for o in chosen]
    described = [(o.format, o.size) for o in chosen]
else:
    _, _, outcomes, described = engine._prove_shard((name, module, timeout, 0, 1))
print(json.dumps(engine._summarise(described, outcomes)))
"""


def prove_edited(
    tmp_path: Path,
    name: str,
    edits: dict[str, list[tuple[str, str]]],
    select: str = "",
    timeout: float = 60.0,
) -> dict:
    """The engine's summary of ``name``'s own obligations (those whose claim contains
    ``select``, if given) on a copy of the package with ``edits`` applied: ``{file relative to
    the package: [(old, new), ...]}``, each ``old`` occurring exactly once."""
    root = tmp_path / "edited"
    copy = root / "certdp"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for relative, replacements in edits.items():
        path = copy / relative
        text = path.read_text()
        for old, new in replacements:
            assert text.count(old) == 1, f"{relative}: {old!r} occurs {text.count(old)} times"
            text = text.replace(old, new)
        path.write_text(text)
    environment = dict(os.environ, PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1")
    finished = subprocess.run(
        [sys.executable, "-c", _SCRIPT, name, str(timeout), select, str(root)],
        capture_output=True, text=True, env=environment, cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert finished.returncode == 0, finished.stderr[-3000:]
    return json.loads(finished.stdout.strip().splitlines()[-1])
