"""The audit on a temporary copy of the repository: it notices every kind of drift."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from certdp.audit.discovery import NAMESPACES

REPO = Path(__file__).resolve().parents[2]
FOLDER = Path("src/certdp/transformations/is_equal")


def run(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "certdp", *args],
        cwd=root,
        env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def vetted_template(tmp_path_factory) -> Path:
    """A copy of the package with only make_is_equal, vetted, under git (built once)."""
    root = tmp_path_factory.mktemp("template") / "repo"
    shutil.copytree(REPO / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__"))
    for namespace in NAMESPACES:
        for folder in (root / "src/certdp" / namespace).iterdir():
            if (
                folder.is_dir()
                and folder.name not in ("is_equal", "__pycache__")
                and not folder.name.startswith("_")
            ):
                shutil.rmtree(folder)
    (root / "tests").mkdir()
    shutil.copy(REPO / "tests/transformations/test_is_equal.py", root / "tests/test_is_equal.py")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A"], cwd=root, check=True
    )
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "copy"],
        cwd=root,
        check=True,
    )
    vetted = run(root, "vet", "make_is_equal", "--by", "A. Reviewer")
    assert vetted.returncode == 0, vetted.stderr
    return root


@pytest.fixture
def repo(vetted_template: Path, tmp_path: Path) -> Path:
    """A private copy of the vetted template for one test to change."""
    root = tmp_path / "repo"
    shutil.copytree(vetted_template, root, symlinks=True)
    return root


def edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def audit(root: Path, *args: str) -> tuple[int, dict]:
    result = run(root, "audit", "--json", "--examples", "5", *args)
    return result.returncode, json.loads(result.stdout)


def checks(report: dict) -> dict:
    (row,) = report["constructors"]
    return {name: check["status"] for name, check in row["checks"].items()}


def test_vetted_copy_is_ok_and_strict_passes(repo):
    code, report = audit(repo, "--strict")
    assert code == 0, report
    assert checks(report) == {
        "artifacts": "ok",
        "binding": "ok",
        "freshness": "ok",
        "contracts": "ok",
        "build": "skipped",
    }


def test_changed_line_in_proven_range_is_outdated(repo):
    edit(
        repo,
        f"{FOLDER}/make_is_equal.py",
        "return d_in  # label: stability-map",
        "return d_in + 0  # label: stability-map",
    )
    result = run(repo, "audit", "--examples", "5")
    assert result.returncode != 0
    assert "make_is_equal" in result.stdout and "OUTDATED" in result.stdout
    assert (
        "git diff " in result.stdout
        and "src/certdp/transformations/is_equal/make_is_equal.py" in result.stdout
    )
    code, report = audit(repo)
    assert checks(report)["freshness"] == "outdated"


def test_comment_and_formatting_outside_labels_do_not_count(repo):
    edit(
        repo,
        f"{FOLDER}/make_is_equal.py",
        "    def function(data):\n",
        "    # a new comment\n    def function(\n        data,\n    ):\n",
    )
    code, report = audit(repo, "--strict")
    assert code == 0, report
    assert checks(report)["freshness"] == "ok"


def test_moving_a_label_is_a_change(repo):
    edit(repo, f"{FOLDER}/make_is_equal.py", "return d_in  # label: stability-map", "return d_in")
    edit(
        repo,
        f"{FOLDER}/make_is_equal.py",
        "def stability_map(d_in):",
        "def stability_map(d_in):  # label: stability-map",
    )
    code, report = audit(repo)
    assert code != 0 and checks(report)["freshness"] == "outdated"


def test_removed_label_is_a_broken_reference(repo):
    edit(repo, f"{FOLDER}/make_is_equal.py", "  # label: metric-check", "")
    code, report = audit(repo)
    assert code != 0
    (row,) = report["constructors"]
    assert row["checks"]["binding"]["status"] == "FAIL"
    assert "broken reference" in row["checks"]["binding"]["detail"]
    assert "metric-check" in row["checks"]["binding"]["detail"]


def test_removed_precondition_is_a_mismatch(repo):
    contract = repo / FOLDER / "contract.py"
    text = contract.read_text()
    start = text.index('        Precondition(\n            "value-in-carrier-type"')
    end = text.index("        ),\n", start) + len("        ),\n")
    contract.write_text(text[:start] + text[end:])
    code, report = audit(repo)
    assert code != 0
    (row,) = report["constructors"]
    assert "precondition mismatch" in row["checks"]["binding"]["detail"]
    assert "value-in-carrier-type" in row["checks"]["binding"]["detail"]
    refused = run(repo, "vet", "make_is_equal", "--by", "A. Reviewer")
    assert refused.returncode != 0 and "refusing to vet" in refused.stderr


def test_vet_restores_ok(repo):
    edit(
        repo,
        f"{FOLDER}/make_is_equal.py",
        "return d_in  # label: stability-map",
        "return d_in + 0  # label: stability-map",
    )
    assert audit(repo)[0] != 0
    assert run(repo, "vet", "make_is_equal", "--by", "B. Reviewer").returncode == 0
    code, report = audit(repo, "--strict")
    assert code == 0 and checks(report)["freshness"] == "ok"
    ledger = json.loads((repo / "proofs/vetting-ledger.json").read_text())
    assert ledger["transformations/is_equal/make_is_equal"]["reviewer"] == "B. Reviewer"


def test_never_vetted_fails_only_with_strict(repo):
    (repo / "proofs/vetting-ledger.json").unlink()
    assert audit(repo)[0] == 0
    assert audit(repo, "--strict")[0] != 0


def test_junit_output(repo, tmp_path):
    junit = tmp_path / "audit.xml"
    result = run(repo, "audit", "--examples", "5", "--junit", str(junit))
    assert result.returncode == 0
    import xml.etree.ElementTree as ElementTree

    suite = ElementTree.parse(junit).getroot()
    assert suite.get("name") == "certdp-audit" and suite.get("failures") == "0"
    assert len(suite.findall("testcase")) == 5


LEMMA_CODE = """def helper(x):
    return x


# proof: begin helper-range
def lemma_helper(x):
    return 2 * x  # label: doubled
# proof: end helper-range
"""

LEMMA_TEX = r"""\documentclass{article}
\usepackage{certdp}
\begin{document}
\provesCode{demo_lemma.py}{helper-range}
A lemma about doubling.
\end{document}
"""


def test_changes_to_a_cited_lemma_make_the_constructor_outdated(repo):
    lemma = repo / "src/certdp/transformations/_demo"
    lemma.mkdir()
    (lemma / "demo_lemma.py").write_text(LEMMA_CODE)
    (lemma / "demo_lemma.tex").write_text(LEMMA_TEX)
    edit(
        repo,
        f"{FOLDER}/make_is_equal.tex",
        r"\certdpcode{",
        "\\usesLemma{../_demo/demo_lemma.tex}\n\\certdpcode{",
    )
    assert run(repo, "vet", "make_is_equal", "--by", "A. Reviewer").returncode == 0
    assert audit(repo, "--strict")[0] == 0
    # code outside the lemma's proven range does not count
    edit(
        repo,
        "src/certdp/transformations/_demo/demo_lemma.py",
        "    return x\n",
        "    return x + 1\n",
    )
    assert audit(repo, "--strict")[0] == 0
    # a change inside it does
    edit(repo, "src/certdp/transformations/_demo/demo_lemma.py", "return 2 * x", "return x + x")
    result = run(repo, "audit", "--examples", "5")
    assert result.returncode != 0 and "OUTDATED" in result.stdout
    assert "_demo/demo_lemma.py#helper-range" in result.stdout
    assert run(repo, "vet", "make_is_equal", "--by", "A. Reviewer").returncode == 0
    # and so does a change of the lemma's text
    edit(
        repo,
        "src/certdp/transformations/_demo/demo_lemma.tex",
        "A lemma about doubling.",
        "A lemma about halving.",
    )
    code, report = audit(repo)
    assert code != 0 and checks(report)["freshness"] == "outdated"
    # a missing lemma document is a binding failure
    (lemma / "demo_lemma.tex").unlink()
    code, report = audit(repo)
    assert checks(report)["binding"] == "FAIL"
