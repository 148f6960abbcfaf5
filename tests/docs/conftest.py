"""The ``site`` fixture: the documentation site, built once per test session.

It runs ``make proofs`` (incremental) and then sphinx-build with ``-W`` into a temporary folder,
once per test session even under pytest-xdist.  The guide's quick OpenDP cross-check is not run
a second time: the build is handed the report the cross-check tests use
(``tests/crosscheck/opendp_quick.py``, ``sphinx_with_report.py``).  Every test that reads the
site is put in that module's ``xdist_group``, with the cross-check tests, so one worker builds
it while the other runs the rest of the suite (without the group a second worker would sit on
the lock for the whole build); the lock still makes the build happen once if another
distribution mode spreads them.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..crosscheck import opendp_quick

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _build(out: Path, report: Path) -> dict:
    proofs = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-f",
            "proofs/proofs.mk",
            "proofs",
            f"PROOFS_PYTHON={sys.executable}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        # a `make test` above us must not hand its jobserver or goals down
        env={k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")},
    )
    if proofs.returncode != 0:
        return {"ok": False, "log": "make proofs failed:\n" + proofs.stdout + proofs.stderr}
    sphinx = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).with_name("sphinx_with_report.py")),
            str(report),
            "-b",
            "html",
            "-E",
            "-W",
            "--keep-going",
            "-q",
            "-d",
            str(out / "doctrees"),
            str(DOCS),
            str(out / "html"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return {"ok": sphinx.returncode == 0, "log": sphinx.stdout + sphinx.stderr}


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if "site" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group(opendp_quick.GROUP))


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    shared = opendp_quick.shared_folder(tmp_path_factory)
    out, result_file = shared / "certdp-docs-site", shared / "certdp-docs-site.json"
    with open(shared / "certdp-docs-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not result_file.exists():
            report = opendp_quick.quick_report_pickle(tmp_path_factory)
            result_file.write_text(json.dumps(_build(out, report)))
        result = json.loads(result_file.read_text())
    assert result["ok"], "the documentation build failed:\n" + result["log"][-6000:]
    return out / "html"
