"""The gate's cheap check (file hashes sealed into the vetting) refuses whatever the full
fingerprint comparison refuses, and is what a fresh process uses on an unchanged tree.

Each case runs the constructor in a fresh process of a vetted copy of the package
(``conftest.repo``), as a user would, after one edit.
"""

import json
from pathlib import Path

from certdp.audit.ledger import files_seal, proof_fingerprints

from .conftest import FOLDER, LEDGER, commit, edit, ledger_json, run, run_script

KEY = "transformations/is_equal/make_is_equal"

#: Prints the vetting state, whether the cheap check decided it (it accepted the files, and no
#: range was parsed) or the full comparison did, and what the call did.
CALL = """
import certdp.prelude as dp
from certdp.audit import ledger, status
parsed, cheap = [], []
real_fingerprint, real_unchanged = ledger.fingerprint_range, status.files_unchanged
ledger.fingerprint_range = lambda *a: parsed.append(a) or real_fingerprint(*a)
status.files_unchanged = lambda *a: cheap.append(real_unchanged(*a)) or cheap[-1]
print(status.vetting_status("make_is_equal").state)
print("cheap" if cheap == [True] and not parsed else "full")
space = dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance()
try:
    dp.t.make_is_equal(*space, 3)
except Exception as error:
    print(type(error).__name__)
else:
    print("built")
"""


def runtime(root: Path) -> list[str]:
    return run_script(root, CALL, 3)


def entry(root: Path) -> dict:
    return ledger_json(root)[KEY]


def test_vet_records_the_hashes_of_every_file_the_proof_reads_and_seals_them(repo):
    from certdp.audit.discovery import discover

    recorded = entry(repo)
    (constructor,) = [c for c in discover(repo / "src/certdp") if c.key == KEY]
    hashes: dict[str, str] = {}
    proof_fingerprints(constructor, hashes)
    assert recorded["files"] == hashes
    assert "transformations/is_equal/make_is_equal.tex" in recorded["files"]
    assert "transformations/is_equal/make_is_equal.py" in recorded["files"]
    assert any(key.endswith("gate.tex") for key in recorded["files"])  # lemmas, recursively
    assert recorded["seal"] == files_seal(
        recorded["fingerprints"], recorded["proof"], recorded["files"]
    )


def test_an_unchanged_tree_is_up_to_date_by_the_cheap_check(repo):
    assert runtime(repo) == ["up to date", "cheap", "built"]


def test_an_edited_proven_range_refuses_without_contrib(repo):
    code = repo / FOLDER / "make_is_equal.py"
    text = code.read_text()
    marker = text.index("# proof: begin")
    body = text.index("\n", text.index("def ", marker))
    # one statement more inside the proven range: a change of the syntax tree
    code.write_text(text[: body + 1] + "    _ = 0\n" + text[body + 1 :])
    assert runtime(repo) == ["outdated", "full", "FeatureNotEnabledError"]


def test_an_edited_proof_refuses_without_contrib(repo):
    proof = repo / FOLDER / "make_is_equal.tex"
    proof.write_text(
        proof.read_text().replace("\\end{document}", "An added sentence.\n\\end{document}")
    )
    assert runtime(repo) == ["outdated", "full", "FeatureNotEnabledError"]


def test_an_edited_lemma_the_proof_cites_refuses_without_contrib(repo):
    lemma = repo / "src/certdp/core/conversion.tex"
    lemma.write_text(lemma.read_text().replace("\\end{document}", "A new claim.\n\\end{document}"))
    assert runtime(repo) == ["outdated", "full", "FeatureNotEnabledError"]


def test_an_edited_range_of_a_cited_lemma_refuses_without_contrib(repo):
    edit(
        repo,
        "src/certdp/audit/gate.py",
        "    if name in _up_to_date:  # label: cache-hit\n        return None\n",
        "    if name in _up_to_date:  # label: cache-hit\n        return ()\n",
    )
    assert runtime(repo) == ["outdated", "full", "FeatureNotEnabledError"]


def test_a_comment_edit_is_compared_the_slow_way_and_stays_up_to_date(repo):
    code = repo / FOLDER / "make_is_equal.py"
    code.write_text(code.read_text() + "\n# a comment after the code\n")
    assert runtime(repo) == ["up to date", "full", "built"]


def test_a_ledger_whose_fingerprints_no_longer_match_its_file_hashes_is_compared_fully(repo):
    """A hand edit or a merge that changes a fingerprint but keeps the file hashes breaks the
    seal: the gate then recomputes, and refuses."""
    raw = ledger_json(repo)  # written back below in format 1, which certdp reads as such
    fingerprints = raw[KEY]["fingerprints"]
    key = next(k for k in fingerprints if k.startswith("transformations/is_equal/"))
    fingerprints[key] = "0" * 64
    (repo / LEDGER).write_text(json.dumps(raw))
    assert runtime(repo) == ["outdated", "full", "FeatureNotEnabledError"]


def test_an_entry_without_file_hashes_is_compared_fully(repo):
    raw = ledger_json(repo)
    del raw[KEY]["files"], raw[KEY]["seal"]
    (repo / LEDGER).write_text(json.dumps(raw))
    assert runtime(repo) == ["up to date", "full", "built"]


def test_a_re_vetting_after_an_edit_restores_the_cheap_check(repo):
    code = repo / FOLDER / "make_is_equal.py"
    code.write_text(code.read_text() + "\n# a comment after the code\n")
    commit(repo, "comment")
    vetted = run(repo, "vet", "make_is_equal", "--by", "A. Reviewer", "--reviewed", "proof")
    assert vetted.returncode == 0, vetted.stderr + vetted.stdout
    assert runtime(repo) == ["up to date", "cheap", "built"]


def test_a_symbolic_link_on_the_way_to_a_file_is_compared_fully(repo):
    """Where a proof's relative path leads depends on symbolic links, not only on bytes: the
    cheap check accepts none between the package and a file it hashes, although the bytes read
    through the link are the vetted ones.  (The full comparison then finds the proven code
    outside the package, and refuses.)"""
    code = repo / FOLDER / "make_is_equal.py"
    copy = repo / "make_is_equal_copy.py"
    copy.write_bytes(code.read_bytes())
    code.unlink()
    code.symlink_to(copy)
    assert code.read_bytes() == copy.read_bytes()
    assert runtime(repo) == ["outdated", "full", "FeatureNotEnabledError"]


def test_a_proof_naming_a_path_that_is_not_plain_records_no_file_hashes(repo):
    """``../is_equal/../../core/conversion.tex`` passes through a folder that is not above its
    target (a link there would move it): the vetting records no hashes, the gate compares fully."""
    edit(
        repo,
        f"{FOLDER}/make_is_equal.tex",
        r"\usesLemma{../../core/conversion.tex}",
        r"\usesLemma{../is_equal/../../core/conversion.tex}",
    )
    commit(repo, "a roundabout path")
    vetted = run(repo, "vet", "make_is_equal", "--by", "A. Reviewer", "--reviewed", "proof")
    assert vetted.returncode == 0, vetted.stderr + vetted.stdout
    assert entry(repo)["files"] == {}
    assert runtime(repo) == ["up to date", "full", "built"]


def test_a_proof_path_leaving_the_package_through_a_link_is_not_plain(repo):
    """Referee counterexample to Lemma 2: ``../../../alias/core/conversion.tex`` from
    ``transformations/is_equal/`` climbs out of the package and comes back in through the link
    ``src/alias -> certdp``.  Such a path is not plain, so no hashes are recorded and the gate
    takes the full comparison; re-targeting the link then makes the constructor refuse."""
    src = repo / "src"
    (src / "alias").symlink_to("certdp")
    edit(
        repo,
        str(FOLDER / "make_is_equal.tex"),
        r"\usesLemma{../../core/conversion.tex}",
        r"\usesLemma{../../../alias/core/conversion.tex}",
    )
    commit(repo, "cite conversion through src/alias")
    vetted = run(repo, "vet", "make_is_equal", "--uncommitted", "--by", "x", "--reviewed", "x")
    assert vetted.returncode == 0, vetted.stderr + vetted.stdout
    assert entry(repo)["files"] == {}  # not plain: the cheap check is never used
    assert runtime(repo) == ["up to date", "full", "built"]
    other = src / "other" / "core"
    other.mkdir(parents=True)
    lemma = (src / "certdp/core/conversion.tex").read_text()
    (other / "conversion.tex").write_text(
        lemma.replace("\\end{document}", "A different, unvetted claim.\n\\end{document}")
    )
    (src / "alias").unlink()
    (src / "alias").symlink_to("other")
    state, decided_by, outcome = runtime(repo)
    assert (state, outcome) != ("up to date", "built")
    assert decided_by == "full"
