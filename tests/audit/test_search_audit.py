"""The parameter search is an audited item: vetted, it runs without contrib; an edit that makes
it compare the map with ``<=`` instead of calling ``check`` makes it OUTDATED in the audit and
gated at run time."""

import json
import shutil
import subprocess
import sys

import pytest

from .conftest import LEDGER, REPO, commit, edit, run

SEARCH = "src/certdp/combinators/_search/binary_search.py"


@pytest.fixture(scope="module")
def vetted_search(tmp_path_factory):
    root = tmp_path_factory.mktemp("search") / "repo"
    shutil.copytree(REPO / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__"))
    (root / LEDGER).write_text("{}\n")
    (root / "pyproject.toml").write_text("# a checkout: its tests/ folder counts\n")
    (root / "tests").mkdir()
    shutil.copy(REPO / "tests/combinators/test_binary_search.py", root / "tests")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    commit(root, "copy")
    vetted = run(root, "vet", "binary_search", "--by", "A. Reviewer", "--reviewed", "proof")
    assert vetted.returncode == 0, vetted.stdout + vetted.stderr
    commit(root, "vetted")
    return root


def _row(root):
    result = run(root, "audit", "--json", "--examples", "5", "binary_search")
    (row,) = json.loads(result.stdout)["constructors"]
    return result.returncode, {name: check["status"] for name, check in row["checks"].items()}


def _search_without_contrib(root):
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import certdp.prelude as dp; print(dp.binary_search(lambda x: x >= 3, T=int))",
        ],
        cwd=root,
        env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_vetted_search_passes_the_audit_and_runs(vetted_search):
    code, statuses = _row(vetted_search)
    assert code == 0 and statuses["freshness"] == "ok" and statuses["binding"] == "ok"
    assert statuses["contracts"] == "ok"
    ran = _search_without_contrib(vetted_search)
    assert ran.returncode == 0 and ran.stdout.strip() == "3", ran.stderr


def test_comparing_the_map_with_le_instead_of_check_is_outdated_and_gated(vetted_search, tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(vetted_search, root, symlinks=True)
    edit(
        root,
        SEARCH,
        "return make_chain(param).check(d_in, d_out)  # label: check",
        "return make_chain(param).map(d_in) <= d_out  # label: check",
    )
    code, statuses = _row(root)
    assert code != 0 and statuses["freshness"] == "outdated"
    ran = _search_without_contrib(root)
    assert ran.returncode != 0 and "binary_search requires 'contrib'" in ran.stderr
