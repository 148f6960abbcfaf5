"""Issue 12's probes: a change anywhere in the code a proof depends on makes it OUTDATED.

Both probes once left ``certdp audit`` green: an outward-rounded operation of
``certdp.numeric`` switched to round to nearest, and a grid constant just above a
``# proof: begin`` marker moved by one.  Neither lies in a range the proofs list; both lie in
the closure of definitions those ranges use, which the audit now fingerprints.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

from certdp.audit.discovery import NAMESPACES

from .conftest import LEDGER, REPO, audit, commit, edit, run

KEPT = ("sized_bounded_float_checked_sum", "float_laplace_cks20")


@pytest.fixture(scope="module")
def vetted_floats(tmp_path_factory) -> Path:
    """A copy of the package with one float sum and the float Laplace, both vetted."""
    root = tmp_path_factory.mktemp("floats") / "repo"
    shutil.copytree(REPO / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__"))
    for namespace in NAMESPACES:
        for folder in (root / "src/certdp" / namespace).iterdir():
            if folder.is_dir() and folder.name not in KEPT and not folder.name.startswith("_"):
                if folder.name != "__pycache__":
                    shutil.rmtree(folder)
    (root / "src/certdp/combinators/_search/contract.py").unlink()  # the search: not kept
    (root / "src/certdp/measurements/_accuracy/contract.py").unlink()  # nor the accuracy lemma
    (root / "src/certdp/combinators/_context/contract.py").unlink()  # nor the Context
    (root / LEDGER).write_text("{}\n")
    (root / "pyproject.toml").write_text("# a checkout\n")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    commit(root, "copy")
    for name in ("make_sized_bounded_float_checked_sum", "make_float_laplace_cks20"):
        vetted = run(
            root, "vet", name, "--by", "A. Reviewer", "--reviewed", "proof against code listing"
        )
        assert vetted.returncode == 0, vetted.stderr + vetted.stdout
    commit(root, "vetted")
    return root


@pytest.fixture
def floats_repo(vetted_floats: Path, tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(vetted_floats, root, symlinks=True)
    return root


def freshness(report: dict) -> dict:
    return {row["name"]: row["checks"]["freshness"] for row in report["constructors"]}


def test_unchanged_tree_is_up_to_date_and_reports_an_empty_trusted_base(floats_repo):
    code, report = audit(floats_repo)
    assert code == 0, report
    assert {check["status"] for check in freshness(report).values()} == {"ok"}
    for row in report["constructors"]:
        # every certdp definition the code reaches is proven by a cited document
        assert row["trusted_base"] == [], row["name"]


@pytest.mark.parametrize(
    "file, old, new, outdated, definition",
    [
        (  # probe 1: one outward-rounded operation rounds to nearest
            "src/certdp/numeric/floats.py",
            'inf_add = _binary("inf_add", "+", "up")',
            'inf_add = _binary("inf_add", "+", "nearest")',
            "make_sized_bounded_float_checked_sum",
            "certdp.numeric.floats.inf_add",
        ),
        (  # probe 2: a grid constant just above a `# proof: begin` marker moves by one
            "src/certdp/measurements/_laplace/discretization.py",
            'K_MIN = {"f64": -1074, "f32": -149}',
            'K_MIN = {"f64": -1073, "f32": -149}',
            "make_float_laplace_cks20",
            "certdp.measurements._laplace.discretization.K_MIN",
        ),
    ],
    ids=["inf_add-to-nearest", "grid-constant-above-marker"],
)
def test_each_probe_makes_the_audit_fail_with_outdated(
    floats_repo, file, old, new, outdated, definition
):
    edit(floats_repo, file, old, new)
    code, report = audit(floats_repo)
    assert code == 1
    check = freshness(report)[outdated]
    assert check["status"] == "outdated"
    assert f"definition {definition}" in check["detail"]
    assert "git diff" in check["detail"] and file in check["detail"]
