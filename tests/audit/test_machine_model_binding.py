"""The SMT model a proof names (``\\machineModel{path}``) is part of what a vetting covers.

Editing the model makes the constructor OUTDATED for the audit and for the runtime gate (so
the constructor then requires ``contrib``); a model the proof names that does not exist fails
the audit's binding check.
"""

import hashlib
from pathlib import Path

import pytest

from .conftest import FOLDER, audit, commit, edit, ledger_json, run_script, vet

KEY = "transformations/is_equal/make_is_equal"
MODEL_KEY = "model:transformations/is_equal/smt_model.py"
MODEL = FOLDER / "smt_model.py"

#: Calls the constructor in a fresh process: prints its vetting state and what the call did.
CALL = """
import certdp.prelude as dp
from certdp.audit.status import vetting_status
print(vetting_status("make_is_equal").state)
space = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
try:
    dp.t.make_is_equal(*space, 3)
except Exception as error:
    print(type(error).__name__)
else:
    print("built")
"""


def name_model(root: Path, model: str) -> None:
    edit(
        root,
        f"{FOLDER}/make_is_equal.tex",
        r"\certdpcode{",
        f"\\machineModel{{{model}}}\n\\certdpcode{{",
    )


def runtime(root: Path) -> list[str]:
    return run_script(root, CALL, 2)


@pytest.fixture
def modelled(repo: Path) -> Path:
    """The vetted template, its proof naming the constructor's SMT model, vetted again."""
    assert (repo / MODEL).is_file()
    name_model(repo, "smt_model.py")
    commit(repo, "name the model")
    vetted = vet(repo, "make_is_equal", by="A. Reviewer", reviewed="proof against code listing")
    assert vetted.returncode == 0, vetted.stderr + vetted.stdout
    commit(repo, "vetted with the model")
    return repo


def freshness(report: dict) -> dict:
    (row,) = report["constructors"]
    return row["checks"]["freshness"]


def test_the_vetting_records_the_models_content(modelled):
    entry = ledger_json(modelled)[KEY]
    digest = hashlib.sha256((modelled / MODEL).read_bytes()).hexdigest()
    assert entry["fingerprints"][MODEL_KEY] == digest
    code, report = audit(modelled)
    assert freshness(report)["status"] == "ok", report
    assert runtime(modelled) == ["up to date", "built"]


def test_editing_the_model_makes_the_constructor_outdated(modelled):
    path = modelled / MODEL
    path.write_text(path.read_text() + "\n_EDITED = True\n")
    code, report = audit(modelled)
    assert code == 1
    check = freshness(report)
    assert check["status"] == "outdated"
    assert MODEL_KEY in check["detail"]
    assert "git diff" in check["detail"] and f"src/certdp/{MODEL_KEY[6:]}" in check["detail"]
    # the runtime gate compares the model too: the constructor now requires contrib
    assert runtime(modelled) == ["outdated", "FeatureNotEnabledError"]


def test_a_missing_model_fails_the_binding_check(repo):
    name_model(repo, "no_such_model.py")
    code, report = audit(repo)
    assert code == 1
    (row,) = report["constructors"]
    binding = row["checks"]["binding"]
    assert binding["status"] == "FAIL"
    assert "SMT model transformations/is_equal/no_such_model.py does not exist" in binding["detail"]
