"""The SMT solvers are the ``prove`` extra: without them ``certdp prove`` says what to install
(exit 2), the audit skips its machine check, and the library never imports them."""

import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

#: Runs certdp with z3 and bitwuzla made unimportable (as in an install without the extra).
WITHOUT_SOLVERS = """
import sys
sys.modules["z3"] = None
sys.modules["bitwuzla"] = None
from certdp.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def certdp_without_solvers(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_SOLVERS, *arguments],
        capture_output=True,
        text=True,
        timeout=600,
        env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"},
    )


def test_the_solvers_are_an_extra_that_make_install_includes():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    required = " ".join(project["dependencies"])
    assert "z3" not in required and "bitwuzla" not in required
    extra = " ".join(project["optional-dependencies"]["prove"])
    assert "z3-solver==" in extra and "bitwuzla==" in extra
    assert ".[dev,docs,prove]" in (REPO / "Makefile").read_text()


def test_prove_without_the_solvers_says_what_to_install():
    result = certdp_without_solvers("prove", "make_count")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "pip install 'certdp[prove]'" in result.stderr
    assert "z3-solver" in result.stderr and "bitwuzla" in result.stderr
    assert "Traceback" not in result.stderr


def test_audit_without_the_solvers_skips_the_machine_check():
    import json

    result = certdp_without_solvers("audit", "make_count", "--json", "--examples", "3")
    report = json.loads(result.stdout)
    (row,) = report["constructors"]
    check = row["checks"]["machine_checked"]
    assert check["status"] == "skipped", check
    assert "certdp[prove]" in check["detail"]


def test_the_library_and_the_gate_import_no_solver_sympy_or_hypothesis():
    probe = (
        "import sys\n"
        "import certdp.prelude as dp\n"
        "dp.enable_features('contrib')  # whatever the vetting state: the gate still runs\n"
        "dp.t.make_count(dp.vector_domain(dp.atom_domain(T='i32')), dp.symmetric_distance())\n"
        "print(sorted(m for m in ('z3', 'bitwuzla', 'sympy', 'hypothesis', 'scipy') "
        "if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
