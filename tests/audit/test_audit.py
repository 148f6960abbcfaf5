"""The audit on a temporary copy of the repository: it notices every kind of drift."""

from certdp.audit.checks import CHECKS

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


def test_vetted_copy_is_ok_and_strict_passes(repo):
    code, report = audit(repo, "--strict")
    assert code == 0, report
    assert checks(report) == {
        "artifacts": "ok",
        "binding": "ok",
        "freshness": "ok",
        "contracts": "ok",
        "machine_checked": "ok",  # the committed `certdp prove` result of make_is_equal
        "build": "skipped",
    }
    machine = report["constructors"][0]["checks"]["machine_checked"]["detail"]
    assert machine.startswith("make_is_equal: proved: ") and "z3" in machine


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
    assert code == 1 and all_but_machine_ok(report), report  # stale SMT result: make prove
    code, report = audit(repo)
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
    edit(repo, f"{FOLDER}/make_is_equal.py", "  # label: value-type", "")
    code, report = audit(repo)
    assert code != 0
    (row,) = report["constructors"]
    assert row["checks"]["binding"]["status"] == "FAIL"
    assert "broken reference" in row["checks"]["binding"]["detail"]
    assert "value-type" in row["checks"]["binding"]["detail"]


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
    refused = vet(repo, "make_is_equal", by="A. Reviewer", reviewed="proof against code listing")
    assert refused.returncode != 0 and "refusing to vet" in refused.stderr


def test_vet_restores_ok(repo):
    edit(
        repo,
        f"{FOLDER}/make_is_equal.py",
        "return d_in  # label: stability-map",
        "return d_in + 0  # label: stability-map",
    )
    assert audit(repo)[0] != 0
    head = commit(repo)
    assert (
        vet(
            repo, "make_is_equal", by="B. Reviewer", reviewed="proof against code listing"
        ).returncode
        == 0
    )
    code, report = audit(repo, "--strict")
    assert code == 1 and all_but_machine_ok(report), report  # stale SMT result: make prove
    code, report = audit(repo)
    assert code == 0 and checks(report)["freshness"] == "ok"
    entry = ledger_json(repo)["transformations/is_equal/make_is_equal"]
    assert entry["reviewer"] == "B. Reviewer" and entry["commit"] == head


def test_ledger_keys_are_relative_to_the_package(repo):
    ledger = ledger_json(repo)
    (entry,) = ledger.values()
    assert list(ledger) == ["transformations/is_equal/make_is_equal"]
    assert "transformations/is_equal/make_is_equal.py#constructor" in entry["fingerprints"]
    assert not any(key.startswith(("src/", "lemma:src/")) for key in entry["fingerprints"])


def test_never_vetted_fails_only_with_strict(repo):
    (repo / LEDGER).write_text("{}\n")
    assert audit(repo)[0] == 0
    assert audit(repo, "--strict")[0] != 0


def test_junit_output(repo, tmp_path):
    junit = tmp_path / "audit.xml"
    result = run(repo, "audit", "--examples", "5", "--junit", str(junit))
    assert result.returncode == 0
    import xml.etree.ElementTree as ElementTree

    suite = ElementTree.parse(junit).getroot()
    assert suite.get("name") == "certdp-audit" and suite.get("failures") == "0"
    assert len(suite.findall("testcase")) == len(CHECKS)


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
    commit(repo)
    assert (
        vet(
            repo, "make_is_equal", by="A. Reviewer", reviewed="proof against code listing"
        ).returncode
        == 0
    )
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
    commit(repo)
    assert (
        vet(
            repo, "make_is_equal", by="A. Reviewer", reviewed="proof against code listing"
        ).returncode
        == 0
    )
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
