"""certdp works installed from a wheel, run from a folder outside the repository.

The wheel is built once (``pip wheel --no-deps``, from a copy of the sources so the checkout gets
no ``build/`` or ``egg-info``) and installed, non-editable, into a fresh virtual environment.
The dependencies come from the environment running the tests (a ``.pth`` file names its
``site-packages``; the editable install there is not activated by it, and the fresh venv's own
``certdp`` comes first), so the test is fast and needs no index beyond what building the wheel
needs.  Everything then runs from a temporary folder: the README quick start without
``contrib``, ``certdp audit`` (one strict run over every constructor with ``--json`` and
``--junit``, whose report two tests read; the table of one name, an unknown name, ``--build``
with and without LaTeX) and ``certdp vet`` (refused: no checkout).  The module's tests share
its fixtures, so they run on one xdist worker (``xdist_group``).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import xml.etree.ElementTree as ElementTree
import zipfile
from pathlib import Path

import pytest

from certdp.audit.checks import CHECKS
from certdp.audit.discovery import discover

REPO = Path(__file__).resolve().parents[2]
CONSTRUCTORS = len(discover())

pytestmark = pytest.mark.xdist_group("installed")


# session scope: built once, even when the worker runs other modules between these tests
@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> dict:
    """A fresh venv with the wheel installed, and a working folder outside the repository."""
    base = tmp_path_factory.mktemp("installed")
    source = base / "source"
    shutil.copytree(
        REPO / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    built = subprocess.run(
        [*pip, "wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (base / "dist").glob("certdp-*.whl")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    dependencies = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(purelib) / "certdp-test-dependencies.pth").write_text("\n".join(sorted(dependencies)))
    install = subprocess.run(
        [*pip, "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    return {"wheel": wheel, "venv": venv, "python": python, "cwd": elsewhere}


def run(installed, *command, path=None, timeout=1200) -> subprocess.CompletedProcess:
    bin_dir = str(installed["venv"] / "bin")
    environment = {
        "PATH": path if path is not None else f"{bin_dir}:/usr/local/bin:/usr/bin:/bin",
        "HOME": os.environ.get("HOME", "/tmp"),
        "HYPOTHESIS_PROFILE": os.environ.get("HYPOTHESIS_PROFILE", "ci"),
    }
    return subprocess.run(
        [str(installed["venv"] / "bin" / command[0]), *command[1:]],
        cwd=installed["cwd"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_the_wheel_carries_the_evidence(installed):
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    for data in ("vetting-ledger.json", "certdp.sty", "definitions.tex", "latexmkrc", "proofs.mk"):
        assert f"certdp/proofs/{data}" in names
    for constructor in discover():
        folder = f"certdp/{constructor.key.rpartition('/')[0]}"
        for file in (f"{constructor.name}.py", f"{constructor.name}.tex", "contract.py"):
            assert f"{folder}/{file}" in names
    metadata = zipfile.ZipFile(installed["wheel"]).read(
        next(name for name in names if name.endswith(".dist-info/METADATA"))
    )
    for dependency in (b"rich", b"numpy", b"sympy", b"mpmath", b"hypothesis"):
        assert re.search(rb"^Requires-Dist: " + dependency + rb"\b", metadata, re.MULTILINE)


def test_readme_quick_start_runs_without_contrib(installed):
    readme = (REPO / "README.md").read_text()
    context_start, quick_start = re.findall(r"```python\n(.*?)```", readme, re.DOTALL)[:2]
    assert "dp.Context.compositor" in context_start  # the first example is the Context's
    assert "enable_features" not in context_start + quick_start
    script = installed["cwd"] / "quick_start.py"
    script.write_text(
        "import certdp\n"
        + context_start
        + "\nprint(context.current_privacy_loss(), count.param(), context.remaining_privacy_loss())\n"
        + quick_start
        + "\nprint(certdp.__file__)\nprint(is_three([1, 3, 3]), is_three.map(2))\n"
    )
    result = run(installed, "python", str(script))
    assert result.returncode == 0, result.stderr
    shares, where, values = result.stdout.splitlines()[-3:]
    third = "0.3333333333333333"
    assert shares == f"[{third}] 3.0000000000000004 [{third}, {third}]"
    assert where.startswith(str(installed["venv"])), where
    assert values == "[False, True, True] 2"


def test_example_data_ship_with_the_wheel(installed):
    """dp.examples reads the California PUMS sample from the installed package, offline."""
    script = installed["cwd"] / "examples.py"
    script.write_text(
        "import csv\n"
        "import certdp.prelude as dp\n"
        "path = dp.examples.get_california_pums_path()\n"
        "rows = list(csv.reader(open(path)))\n"
        "print(path)\n"
        "print(len(rows), len(rows[0]), sum(float(row[4]) for row in rows))\n"
    )
    result = run(installed, "python", str(script))
    assert result.returncode == 0, result.stderr
    where, counts = result.stdout.splitlines()[-2:]
    assert where.startswith(str(installed["venv"])) and where.endswith("california_pums.csv")
    source = (REPO / "src" / "certdp" / "examples" / "california_pums.csv").read_text()
    expected = [line.split(",") for line in source.splitlines()]
    assert counts == f"{len(expected)} 6 {sum(float(row[4]) for row in expected)}"


# session scope: built once, even when the worker runs other modules between these tests
@pytest.fixture(scope="session")
def strict_audit(installed) -> dict:
    """One ``certdp audit --strict --json --junit`` of the installed package, every constructor,
    the contracts with their default number of examples: its exit status, report, stderr and
    JUnit file."""
    junit = installed["cwd"] / "audit.xml"
    result = run(installed, "certdp", "audit", "--strict", "--json", "--junit", str(junit))
    return {"result": result, "junit": junit}


def test_audit_checks_the_installed_package(installed, strict_audit):
    result = strict_audit["result"]
    assert result.returncode == 0, _failed_rows(result.stdout) + result.stderr
    report = json.loads(result.stdout)
    assert report["strict"] is True and report["failed"] == 0
    assert len(report["constructors"]) == CONSTRUCTORS
    assert not any(row["failed"] for row in report["constructors"])
    # no --build: the proofs are not built, and the report says so
    assert report["build"] == {
        "requested": False,
        "ran": False,
        "missing_tools": [],
        "output": None,
    }
    assert str(installed["venv"]) in result.stderr  # names the package it audits
    # a row is "timeout" where the packaged SMT result is undecided (it does not fail the audit)
    rows = re.findall(r"^(ok|timeout) +\w+$", result.stderr, re.MULTILINE)
    assert len(rows) == CONSTRUCTORS


def _failed_rows(stdout: str) -> str:
    """The checks of the rows that failed, from the audit's JSON (the whole report otherwise)."""
    try:
        rows = json.loads(stdout)["constructors"]
    except (ValueError, KeyError, TypeError):
        return stdout[-4000:]
    failed = [
        {"name": row.get("name"), "checks": row.get("checks")} for row in rows if row.get("failed")
    ]
    return json.dumps(failed, indent=1)[-8000:] + "\n"


def test_audit_json_and_junit(installed, strict_audit):
    result, junit = strict_audit["result"], strict_audit["junit"]
    assert result.returncode == 0, _failed_rows(result.stdout) + result.stderr
    report = json.loads(result.stdout)
    assert report["failed"] == 0 and len(report["constructors"]) == CONSTRUCTORS
    assert report["package"].startswith(str(installed["venv"]))
    assert report["ledger"].endswith("certdp/proofs/vetting-ledger.json")
    for row in report["constructors"]:
        statuses = {name: check["status"] for name, check in row["checks"].items()}
        # the packaged `certdp prove` cache: proved, undecided in time, or no model
        assert statuses.pop("machine_checked") in ("ok", "timeout", "skipped"), row
        assert statuses == {
            "artifacts": "ok",
            "binding": "ok",
            "freshness": "ok",
            "contracts": "ok",
            "build": "skipped",
        }, row
        assert "tests live in the source repository" in row["checks"]["artifacts"]["detail"]
        assert row["checks"]["freshness"]["detail"].startswith("vetted by ")
    suite = ElementTree.parse(junit).getroot()
    assert suite.get("failures") == "0"
    assert len(suite.findall("testcase")) == len(CHECKS) * CONSTRUCTORS


def test_audit_one_name_and_an_unknown_name(installed):
    one = run(installed, "certdp", "audit", "--strict", "make_sum")
    assert one.returncode == 0, one.stderr
    # the table (the whole package's is read as JSON above)
    assert "1 constructor: 1 passed, 0 failed (0 outdated, 0 never" in one.stdout
    assert "proofs not built (add --build" in one.stdout
    assert str(installed["venv"]) in one.stderr  # names the package it audits
    unknown = run(installed, "certdp", "audit", "make_nonexistent")
    assert unknown.returncode == 2
    assert "no constructor named make_nonexistent" in unknown.stderr


def test_audit_build_says_so_without_latex(installed):
    result = run(
        installed,
        "certdp",
        "audit",
        "make_is_equal",
        "--build",
        path=str(installed["venv"] / "bin"),
    )
    assert result.returncode == 0, result.stderr
    assert "proofs not built: make and latexmk not found" in result.stdout
    assert not (installed["cwd"] / "certdp-proofs").exists()


@pytest.mark.skipif(
    shutil.which("latexmk") is None or shutil.which("make") is None, reason="no LaTeX or make"
)
def test_audit_build_compiles_the_packaged_proof(installed):
    result = run(installed, "certdp", "audit", "make_is_equal", "--build", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    (row,) = json.loads(result.stdout)["constructors"]
    assert row["checks"]["build"]["status"] == "ok", row["checks"]["build"]
    pdf = installed["cwd"] / "certdp-proofs/transformations/is_equal/make_is_equal.pdf"
    assert pdf.is_file() and (installed["cwd"] / "certdp-proofs/definitions.pdf").is_file()


def test_vet_is_refused_in_an_installed_package(installed):
    result = run(
        installed,
        "certdp",
        "vet",
        "make_sum",
        "--by",
        "Someone",
        "--reviewed",
        "proof against code listing",
    )
    assert result.returncode == 1 and "is an installed package" in result.stderr
