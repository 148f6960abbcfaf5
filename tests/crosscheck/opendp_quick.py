"""The quick cross-check of OpenDP, run once per test session and shared by the two things that
need it: the cross-check tests (``tests/crosscheck/test_opendp.py``) and the documentation site
(``tests/docs/conftest.py``; docs/guide/crosscheck.rst runs a quick cross-check while it is
built).

Both asked for the same computation, and each did it on its own (about two minutes apiece).
Now the first to ask runs it once, under a lock in this run's temporary folder that every
xdist worker shares, and pickles the report; the docs build is handed that pickle
(``tests/docs/sphinx_with_report.py``).  It is the page's computation exactly: the page's call
(:data:`CALL`), on this tree, in a fresh process set up as the docs build sets up one
(docs/conf.py's ``sys.path``, the ``certdp-run`` extension's derandomized hypothesis profile,
which the cross-check's random pair search reads, and a page's fresh state: contracts off, no
feature enabled).  Every test that reads the report, directly or through the site, is in
:data:`GROUP`, so one worker runs them all and nobody waits on the lock while the other
computes.
"""

from __future__ import annotations

import fcntl
import os
import pickle
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The call docs/guide/crosscheck.rst makes, word for word.
CALL = {"target": "opendp.prelude", "quick": True, "jobs": 2}
#: The xdist group of every test that reads the shared report (directly or through the site).
GROUP = "opendp_quick_and_docs_site"


def shared_folder(tmp_path_factory) -> Path:
    """This run's temporary folder, common to every xdist worker."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    return shared


def quick_report_pickle(tmp_path_factory) -> Path:
    """The pickled report of :data:`CALL`, computed by the first caller of this run."""
    shared = shared_folder(tmp_path_factory)
    path = shared / "certdp-opendp-quick-report.pickle"
    with open(shared / "certdp-opendp-quick-report.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            partial = path.with_suffix(".partial")
            run = subprocess.run(
                [sys.executable, __file__, str(partial)],
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            assert run.returncode == 0, "the quick cross-check failed:\n" + run.stderr[-6000:]
            partial.rename(path)
    return path


def quick_report(tmp_path_factory):
    """The report of :data:`CALL` (a fresh unpickled copy, so no caller sees another's edits)."""
    return pickle.loads(quick_report_pickle(tmp_path_factory).read_bytes())


def _compute(out: Path) -> None:
    """Run :data:`CALL` as the docs build runs it, and pickle the report into ``out``."""
    sys.path[0:1] = [str(ROOT / "docs" / "_ext"), str(ROOT / "src")]  # as docs/conf.py
    import certdp.crosscheck

    try:
        import certdp_run  # imports Sphinx (the docs extra)
    except ModuleNotFoundError:  # no docs build to share with: the tests' run only
        from hypothesis import settings

        settings.register_profile("quick", derandomize=True, database=None, deadline=None)
        settings.load_profile("quick")
    else:
        certdp_run._deterministic_hypothesis()  # the extension's setup() does this in the build
        certdp_run._fresh_namespace()  # each page starts so
    report = certdp.crosscheck(CALL["target"], quick=CALL["quick"], jobs=CALL["jobs"])
    out.write_bytes(pickle.dumps(report))


if __name__ == "__main__":
    _compute(Path(sys.argv[1]))
