"""A vetted copy of the package under git, for the audit and vet tests to change.

``vetted_template`` (built once per test process) holds only make_is_equal, vetted and
committed, with a ``pyproject.toml`` so that it counts as a source checkout (its ``tests/``
folder counts); ``repo`` is a private copy for one test.
"""

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from certdp.audit.discovery import NAMESPACES, package_root
from certdp.audit.ledger import LEDGER_PATH

REPO = Path(__file__).resolve().parents[2]
FOLDER = Path("src/certdp/transformations/is_equal")
LEDGER = Path("src/certdp/proofs/vetting-ledger.json")
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]


@pytest.fixture(scope="session")
def committed_text() -> str:
    """The text of the package's committed vetting ledger (the package in use)."""
    return (package_root() / LEDGER_PATH).read_text(encoding="utf-8")


def run(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "certdp", *args],
        cwd=root,
        env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def run_script(root: Path, script: str, lines: int) -> list[str]:
    """The first ``lines`` lines ``script`` prints, run by a fresh interpreter on the copy
    ``root`` (its ``src`` alone on the path)."""
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=root,
        env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split("\n")[:lines]


def vet(root: Path, name: str, *options: str, by: str, reviewed: str):
    """``certdp vet name --by BY --reviewed REVIEWED [options]`` in ``root``."""
    return run(root, "vet", name, "--by", by, "--reviewed", reviewed, *options)


@pytest.fixture(scope="session")
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
    # the parameter search is audited too (a support folder with a contract): not in the template
    (root / "src/certdp/combinators/_search/contract.py").unlink()
    (root / "src/certdp/measurements/_accuracy/contract.py").unlink()  # and the accuracy lemma
    (root / "src/certdp/combinators/_context/contract.py").unlink()  # and the Context
    (root / LEDGER).write_text("{}\n")
    (root / "pyproject.toml").write_text("# a checkout: its tests/ folder counts\n")
    (root / "tests").mkdir()
    shutil.copy(REPO / "tests/transformations/test_is_equal.py", root / "tests/test_is_equal.py")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    commit(root, "copy")
    vetted = vet(root, "make_is_equal", by="A. Reviewer", reviewed="proof against code listing")
    assert vetted.returncode == 0, vetted.stderr
    commit(root, "vetted")
    return root


def commit(root: Path, message: str = "change") -> str:
    """Commit everything; the short commit, as ``certdp vet`` records it."""
    subprocess.run([*GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", message], cwd=root, check=True)
    return subprocess.run(
        ["git", "rev-parse", "--short=12", "HEAD"], cwd=root, capture_output=True, text=True
    ).stdout.strip()


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


def format_2(raw: dict) -> dict:
    """A format-3 ledger value rewritten in format 2 (ids the hashes of their pairs), here
    independently of :mod:`certdp.audit.ledger`; a format-2 value is returned as it is."""
    if raw.get("format") != 3:
        return raw

    def ident(pair) -> str:
        return hashlib.sha256(json.dumps(pair).encode()).hexdigest()[:12]

    def ids(text: str) -> str:
        bits = int(text.split(":")[1], 16)  # after the table's identity
        return " ".join(sorted(ident(p) for i, p in enumerate(raw["pairs"]) if bits >> i & 1))

    return {
        "format": 2,
        "pairs": {ident(pair): pair for pair in raw["pairs"]},
        "entries": {
            key: {
                **entry,
                **{part: ids(entry[part]) for part in ("fingerprints", "files") if part in entry},
            }
            for key, entry in raw["entries"].items()
        },
    }


def table_id(pairs: list) -> str:
    """The identity a format-3 ledger's bitsets start with, computed here independently of
    :mod:`certdp.audit.ledger`: 16 hex digits of the SHA-256 of "0" and the strings joined by
    NUL (ASCII strings without NUL) or of "1" and the list's compact JSON (any other)."""
    strings = [string for pair in pairs for string in pair]
    if pairs and all(string.isascii() and "\0" not in string for string in strings):
        text = "0" + "\0".join(strings)
    else:
        text = "1" + json.dumps(pairs, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


def ledger_json(root: Path) -> dict:
    """The ledger of ``root`` as a format-1 object (each entry with its fingerprints and file
    hashes in full), decoded here independently of :mod:`certdp.audit.ledger`; a format-1
    object written back with ``json.dumps`` is read by certdp as it is."""
    raw = json.loads((root / LEDGER).read_text())
    if "format" not in raw:
        return raw
    pairs = raw["pairs"]

    def named(ids: str) -> dict:
        if raw["format"] == 3:  # the list's identity, ":" and a hexadecimal bitset over it
            bits = int(ids.split(":")[1], 16)
            return dict(pair for index, pair in enumerate(pairs) if bits >> index & 1)
        return dict(pairs[ident] for ident in ids.split(" ")) if ids else {}

    return {
        key: {
            **entry,
            **{part: named(entry[part]) for part in ("fingerprints", "files") if part in entry},
        }
        for key, entry in raw["entries"].items()
    }


def audit(root: Path, *args: str) -> tuple[int, dict]:
    result = run(root, "audit", "--json", "--examples", "5", *args)
    return result.returncode, json.loads(result.stdout)


def checks(report: dict) -> dict:
    (row,) = report["constructors"]
    return {name: check["status"] for name, check in row["checks"].items()}


def all_but_machine_ok(report: dict) -> bool:
    """Every check passes but the machine check, which any edit of the modelled code (even a
    comment: the ``certdp prove`` cache is keyed by the files' bytes) leaves stale."""
    statuses = checks(report)
    return statuses.pop("machine_checked") == "outdated" and set(statuses.values()) <= {
        "ok",
        "skipped",
    }
