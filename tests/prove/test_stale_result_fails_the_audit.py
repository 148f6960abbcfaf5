"""What stands in `make test` for the full re-proofs of the measure-cast and fix_delta models
(their ``test_every_obligation_is_proved`` are marked ``slow``, run by `make test-thorough`):
the committed `certdp prove` result of each model is current and proved, and any edit of the
code it models or of the model makes that result stale, which fails `certdp audit --strict`
(part of `make`).  The unsound edits are the ones the refutation tests in
test_measure_cast_models.py and test_fix_delta_model.py show to be refuted."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.prove.edited import PACKAGE

#: name -> (the constructor's code, an unsound edit of it (old, new)), the model beside it
MODELS = {
    "make_approximate": (
        "combinators/approximate/make_approximate.py",
        ("return loss, 0.0  # label: pair", "return min(loss, 1.0), 0.0  # label: pair"),
    ),
    "make_fixed_approxDP_to_approxDP": (
        "combinators/fixed_approxDP_to_approxDP/make_fixed_approxDP_to_approxDP.py",
        (
            "return fixed_delta if epsilon >= fixed_epsilon else 1.0  # label: curve",
            "return fixed_delta  # label: curve",
        ),
    ),
    "make_fix_delta": (
        "combinators/fix_delta/make_fix_delta.py",
        ("return epsilon  # label: read", "return epsilon / 2  # label: read"),
    ),
}

_STATUS = """
import json, sys
import certdp
from certdp.audit.checks import ConstructorAudit, check_machine
from certdp.audit.discovery import discover
assert certdp.__file__.startswith(sys.argv[1]), certdp.__file__
rows = {}
for folder in discover():
    if folder.name in sys.argv[2:]:
        check = check_machine(folder)
        row = ConstructorAudit(folder.key, folder.name, {"machine_checked": check})
        rows[folder.name] = {
            "status": check.status,
            "detail": check.detail,
            "fails_strict": row.failed(strict=True),
        }
print(json.dumps(rows))
"""


def _machine_checks(package: Path) -> dict:
    """The audit's machine_checked check of each model's constructor, run on ``package``."""
    environment = dict(os.environ, PYTHONPATH=str(package.parent), PYTHONDONTWRITEBYTECODE="1")
    finished = subprocess.run(
        [sys.executable, "-c", _STATUS, str(package), *MODELS],
        capture_output=True, text=True, env=environment, timeout=600,
    )  # fmt: skip
    assert finished.returncode == 0, finished.stderr[-2000:]
    rows = json.loads(finished.stdout.splitlines()[-1])
    assert set(rows) == set(MODELS)
    return rows


def _edited_copy(tmp_path: Path, edits: dict[str, tuple[str, str]]) -> Path:
    """A copy of the package with ``{file: (old, new)}`` applied (``old`` occurs once there;
    an empty ``old`` puts ``new`` in front of the file)."""
    copy = tmp_path / "certdp"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for relative, (old, new) in edits.items():
        path = copy / relative
        text = path.read_text()
        if not old:
            path.write_text(new + text)
            continue
        assert text.count(old) == 1, (relative, old)
        path.write_text(text.replace(old, new))
    return copy


def test_the_committed_results_are_current_and_proved():
    for name, row in _machine_checks(PACKAGE).items():
        assert row["status"] == "ok" and not row["fails_strict"], (name, row)
        assert row["detail"].startswith(f"{name}: proved: "), row


def test_an_unsound_edit_of_the_code_fails_the_strict_audit(tmp_path):
    copy = _edited_copy(tmp_path, dict(MODELS.values()))
    for name, row in _machine_checks(copy).items():
        assert row["status"] == "outdated" and row["fails_strict"], (name, row)
        assert "stale" in row["detail"] and "run make prove" in row["detail"], row


def test_an_edit_of_the_model_fails_the_strict_audit(tmp_path):
    """Even a comment: the result is for the model as it was proved."""
    models = {
        str(Path(code).parent / "smt_model.py"): ("", "# A comment.\n")
        for code, _ in MODELS.values()
    }
    copy = _edited_copy(tmp_path, models)
    for name, row in _machine_checks(copy).items():
        assert row["status"] == "outdated" and row["fails_strict"], (name, row)
