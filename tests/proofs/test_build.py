"""Building proof PDFs with proofs/proofs.mk (needs latexmk, make and pdftotext)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from certdp.audit.sources import read_markers

REPO = Path(__file__).resolve().parents[2]
IS_EQUAL = REPO / "src/certdp/transformations/is_equal"

pytestmark = [
    pytest.mark.skipif(shutil.which("latexmk") is None, reason="latexmk is not installed"),
    pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed"),
]


def make(root: Path, build: Path, *targets: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    return subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-f",
            str(root / "proofs/proofs.mk"),
            f"PROOFS_BUILD={build}",
            *targets,
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def pdf_text(pdf: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    return subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


def test_make_is_equal_proof_builds_with_real_line_numbers(tmp_path):
    pdf = tmp_path / "transformations/is_equal/make_is_equal.pdf"
    result = make(REPO, tmp_path, str(pdf))
    assert result.returncode == 0, result.stdout + result.stderr
    assert pdf.is_file() and (tmp_path / "definitions.pdf").is_file()

    text = pdf_text(pdf)
    assert "??" not in text
    markers = read_markers(IS_EQUAL / "make_is_equal.py")
    function_line = markers.labels["function"].line
    assert f"line {function_line}" in text
    # the listing is numbered with the real line numbers of the range
    constructor = markers.ranges["constructor"]
    assert f"{constructor.first}--{constructor.last}" in text.replace("–", "--")
    for precondition in (
        "input-domain-vector-of-atoms",
        "input-metric-symmetric-or-insert-delete",
        "value-in-carrier-type",
    ):
        assert f"[{precondition}]" in text


DEMO_CODE = """\
# proof: begin constructor
def make_demo():
    return 1  # label: one
# proof: end constructor
"""

DEMO_TEX = r"""\documentclass{article}
\usepackage{certdp}
\begin{document}
\provesCode{make_demo.py}{constructor}
\certdpcode{make_demo.py}{constructor}
Line~\ref{code:one} returns one; see \defref{REF}.
\end{document}
"""


@pytest.fixture
def demo_repo(tmp_path: Path) -> Path:
    """A minimal repository: the proof tooling and one demo proof."""
    root = tmp_path / "repo"
    shutil.copytree(REPO / "proofs", root / "proofs")
    shutil.copytree(
        REPO / "src/certdp/proofs",
        root / "src/certdp/proofs",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    shutil.copytree(  # the tooling's code, not its lemma document (audit/gate.tex)
        REPO / "src/certdp/audit",
        root / "src/certdp/audit",
        ignore=shutil.ignore_patterns("__pycache__", "*.tex"),
    )
    (root / "src/certdp/core").mkdir()
    shutil.copy(REPO / "src/certdp/core/errors.py", root / "src/certdp/core/errors.py")
    # errors.py tests classes by identity with core/exact_type.py
    shutil.copy(REPO / "src/certdp/core/exact_type.py", root / "src/certdp/core/exact_type.py")
    # the ledger fingerprints a model's import closure with this module
    shutil.copy(REPO / "src/certdp/_imported.py", root / "src/certdp/_imported.py")
    demo = root / "src/certdp/transformations/demo"
    demo.mkdir(parents=True)
    (demo / "make_demo.py").write_text(DEMO_CODE)
    (demo / "make_demo.tex").write_text(DEMO_TEX.replace("REF", "symmetric-distance"))
    (demo / "fragment.tex").write_text("a fragment without documentclass is not built\n")
    return root


def test_incremental_noop_and_undefined_reference_fails(demo_repo, tmp_path):
    build = tmp_path / "build"
    pdf = build / "transformations/demo/make_demo.pdf"

    listed = make(demo_repo, build, "proofs-list")
    assert listed.stdout.split() == ["definitions.pdf", "transformations/demo/make_demo.pdf"]

    first = make(demo_repo, build, "proofs")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "??" not in pdf_text(pdf) and "Line 3 returns one" in pdf_text(pdf)

    stamp = pdf.stat().st_mtime_ns
    again = make(demo_repo, build, "proofs")
    assert again.returncode == 0 and again.stdout == "" and again.stderr == ""
    assert pdf.stat().st_mtime_ns == stamp

    tex = demo_repo / "src/certdp/transformations/demo/make_demo.tex"
    tex.write_text(DEMO_TEX.replace("REF", "no-such-definition"))
    broken = make(demo_repo, build, "proofs")
    assert broken.returncode != 0
    assert "D-def:no-such-definition" in broken.stderr and "undefined" in broken.stderr
    assert not pdf.exists()
