"""``certdp vet`` never records a commit that does not contain what was reviewed."""

import json
import shutil
import subprocess

from .conftest import (
    FOLDER,
    LEDGER,
    all_but_machine_ok,
    audit,
    checks,
    commit,
    edit,
    ledger_json,
    run,
    vet,
)

KEY = "transformations/is_equal/make_is_equal"
CHANGE = ("return d_in  # label: stability-map", "return d_in + 0  # label: stability-map")


def ledger_entry(root):
    return ledger_json(root)[KEY]


def test_vet_refuses_uncommitted_changes_to_the_proven_code(repo):
    before = (repo / LEDGER).read_text()
    edit(repo, f"{FOLDER}/make_is_equal.py", *CHANGE)
    refused = vet(repo, "make_is_equal", by="B. Reviewer", reviewed="proof against code listing")
    assert refused.returncode != 0
    assert "not committed" in refused.stderr
    assert "transformations/is_equal/make_is_equal.py" in refused.stderr
    assert (repo / LEDGER).read_text() == before


def test_vet_refuses_a_staged_but_uncommitted_proof(repo):
    edit(repo, f"{FOLDER}/make_is_equal.tex", "\\begin{document}", "\\begin{document}\nNew.")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    refused = vet(repo, "make_is_equal", by="B. Reviewer", reviewed="proof against code listing")
    assert refused.returncode != 0
    assert "transformations/is_equal/make_is_equal.tex" in refused.stderr


def test_vet_refuses_an_untracked_lemma(repo):
    lemma = repo / "src/certdp/transformations/_demo"
    lemma.mkdir()
    (lemma / "demo.tex").write_text("\\documentclass{article}\\begin{document}A.\\end{document}\n")
    edit(
        repo,
        f"{FOLDER}/make_is_equal.tex",
        r"\certdpcode{",
        "\\usesLemma{../_demo/demo.tex}\n\\certdpcode{",
    )
    subprocess.run(["git", "add", f"{FOLDER}/make_is_equal.tex"], cwd=repo, check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "p"],
        cwd=repo,
        check=True,
    )
    refused = vet(repo, "make_is_equal", by="B. Reviewer", reviewed="proof against code listing")
    assert refused.returncode != 0 and "transformations/_demo/demo.tex" in refused.stderr


def test_vet_after_commit_names_a_commit_holding_the_reviewed_files(repo):
    edit(repo, f"{FOLDER}/make_is_equal.py", *CHANGE)
    head = commit(repo)
    vetted = vet(repo, "make_is_equal", by="B. Reviewer", reviewed="proof against code listing")
    assert vetted.returncode == 0, vetted.stderr
    assert f"at {head}" in vetted.stdout
    assert ledger_entry(repo)["commit"] == head
    at_commit = subprocess.run(
        ["git", "show", f"{head}:{FOLDER}/make_is_equal.py"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert at_commit == (repo / FOLDER / "make_is_equal.py").read_text()


def test_vet_uncommitted_records_the_content_fingerprint_and_says_so(repo):
    edit(repo, f"{FOLDER}/make_is_equal.py", *CHANGE)
    vetted = vet(
        repo,
        "make_is_equal",
        "--uncommitted",
        by="B. Reviewer",
        reviewed="proof against code listing",
    )
    assert vetted.returncode == 0, vetted.stderr
    assert "content fingerprint only" in vetted.stdout and "no commit" in vetted.stdout
    assert "transformations/is_equal/make_is_equal.py" in vetted.stdout
    entry = ledger_entry(repo)
    assert entry["commit"] == "uncommitted" and entry["reviewer"] == "B. Reviewer"
    code, report = audit(repo, "--strict")
    assert code == 1 and all_but_machine_ok(report), report  # stale SMT result: make prove
    code, report = audit(repo)
    assert code == 0 and checks(report)["freshness"] == "ok"
    (row,) = report["constructors"]
    assert "uncommitted files (content fingerprint)" in row["checks"]["freshness"]["detail"]
    # a later change is outdated against the content, with no commit to diff against
    edit(repo, f"{FOLDER}/make_is_equal.py", "return d_in + 0", "return d_in + 1")
    result = run(repo, "audit", "--examples", "5")
    assert result.returncode == 1 and "OUTDATED since vetting at uncommitted files" in result.stdout
    assert "git diff uncommitted" not in result.stdout


def test_vet_outside_git_is_refused(repo):
    shutil.rmtree(repo / ".git")
    refused = vet(repo, "make_is_equal", by="B. Reviewer", reviewed="proof against code listing")
    assert refused.returncode != 0 and "not in a git repository" in refused.stderr


def test_vet_of_an_unknown_constructor_is_refused(repo):
    refused = vet(repo, "make_nonexistent", by="B. Reviewer", reviewed="proof against code listing")
    assert refused.returncode != 0 and "no constructor named 'make_nonexistent'" in refused.stderr


def test_vet_records_what_was_reviewed_and_the_audit_shows_it(repo):
    edit(repo, f"{FOLDER}/make_is_equal.py", *CHANGE)
    commit(repo)
    what = "proof against code listing, cited lemmas, contract"
    vetted = run(repo, "vet", "make_is_equal", "--by", "Proof reviewer", "--reviewed", what)
    assert vetted.returncode == 0, vetted.stderr
    assert vetted.stdout.rstrip().endswith(f"reviewed: {what}")
    entry = ledger_entry(repo)
    assert entry["reviewed"] == what and entry["reviewer"] == "Proof reviewer"
    code, report = audit(repo)
    (row,) = report["constructors"]
    assert row["checks"]["freshness"]["detail"].endswith(f"; reviewed: {what}")


def test_vet_without_saying_what_was_reviewed_is_refused(repo):
    before = (repo / LEDGER).read_text()
    missing = run(repo, "vet", "make_is_equal", "--by", "B. Reviewer")
    assert missing.returncode != 0 and "--reviewed" in missing.stderr
    blank = run(repo, "vet", "make_is_equal", "--by", "B. Reviewer", "--reviewed", "  ")
    assert blank.returncode != 0 and "say what was reviewed" in blank.stderr
    assert (repo / LEDGER).read_text() == before


def test_an_entry_recorded_before_the_reviewed_field_is_still_read(repo):
    from certdp.audit.ledger import read_entries

    ledger = ledger_json(repo)  # written back in format 1, which certdp reads as such
    for entry in ledger.values():
        entry.pop("reviewed", None)
    (repo / LEDGER).write_text(json.dumps(ledger))
    entries = read_entries(repo / "src/certdp")
    assert entries[KEY].reviewed == "" and entries[KEY].reviewer
    code, report = audit(repo)
    assert code == 0 and checks(report)["freshness"] == "ok"
    assert "reviewed:" not in report["constructors"][0]["checks"]["freshness"]["detail"]
