"""Every package file the gate and the audit read is read by one reader of regular files that
never blocks (``certdp.audit.regular_file``, gate.tex "Reading a package file"): a FIFO at a
file a proof reads is refused at once, by the cheap check and by the full comparison.  The
two FIFO-at-the-proof tests are referee ref-gate2's (session 12), assertions kept."""

import hashlib
import os
import signal
import socket
import subprocess
import sys

import pytest

from certdp._imported import imported_files
from certdp.audit.discovery import discover
from certdp.audit.ledger import Ledger, files_unchanged, ledger_file_text, read_ledger
from certdp.audit.regular_file import (
    NotRegularFile,
    has_digest,
    read_regular,
    read_regular_status,
)

from .conftest import FOLDER

KEY = "transformations/is_equal/make_is_equal"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def deadline():
    """Fail instead of hanging: an alarm after 20 s (it interrupts a blocking open)."""

    def expired(*_):
        raise TimeoutError("the check blocked for 20 s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_a_regular_file_is_read_and_its_digest_compared(tmp_path):
    path = tmp_path / "x.tex"
    path.write_bytes(b"vetted text\n")
    assert read_regular(path) == b"vetted text\n"
    assert has_digest(str(path), sha(b"vetted text\n"))
    assert not has_digest(str(path), sha(b"other text!\n"))


@pytest.mark.parametrize("kind", ["fifo", "folder", "link", "link-loop", "socket", "missing"])
def test_anything_but_a_regular_file_is_refused_without_blocking(tmp_path, deadline, kind):
    path = tmp_path / "x.tex"
    target = tmp_path / "real.tex"
    target.write_bytes(b"text\n")
    listening = socket.socket(socket.AF_UNIX)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":  # opening one fails with ENXIO
        listening.bind(str(path))
    elif kind == "folder":
        path.mkdir()
    elif kind == "link":
        path.symlink_to(target)
    elif kind == "link-loop":
        path.symlink_to(tmp_path / "x.tex")
    assert not has_digest(str(path), sha(b"text\n"))
    with pytest.raises(FileNotFoundError if kind == "missing" else NotRegularFile):
        read_regular(path)
    with pytest.raises(FileNotFoundError if kind == "missing" else NotRegularFile):
        read_regular_status(path, 16)
    listening.close()


def test_the_status_is_the_one_of_the_file_read_and_the_limit_is_kept(tmp_path):
    path = tmp_path / "x.pyc"
    path.write_bytes(bytes(range(40)))
    data, status = read_regular_status(path, 16)
    assert data == bytes(range(16))
    assert (status.st_ino, status.st_size) == (os.stat(path).st_ino, 40)
    assert read_regular_status(path) == (bytes(range(40)), status)
    assert read_regular_status(path, 100)[0] == bytes(range(40))  # a shorter file: all of it


def _model_package(tmp_path):
    package = tmp_path / "certdp"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "model.py").write_text("from certdp.sub import helper\n")
    return package


def test_imported_files_reads_regular_files_only(tmp_path, deadline):
    """certdp._imported reads each file with the regular-file reader: a module file that is a
    symbolic link (Python would import it) raises, a FIFO model raises at once, and a FIFO
    module (Python's finder does not take it) is not followed."""
    package = _model_package(tmp_path)
    helper = package / "sub" / "helper.py"
    (tmp_path / "real_helper.py").write_text("X = 1\n")
    helper.symlink_to(tmp_path / "real_helper.py")
    with pytest.raises(NotRegularFile):
        imported_files(package / "sub" / "model.py", package)
    helper.unlink()
    os.mkfifo(helper)
    assert [p.name for p in imported_files(package / "sub" / "model.py", package)] == [
        "__init__.py",
        "__init__.py",
        "model.py",
    ]
    model = package / "sub" / "fifo_model.py"
    os.mkfifo(model)
    with pytest.raises(NotRegularFile):
        imported_files(model, package)


def test_a_fifo_named_in_an_entry_is_refused_by_the_cheap_check(repo, deadline):
    package = repo / "src/certdp"
    (constructor,) = [c for c in discover(package) if c.key == KEY]
    files = dict(read_ledger(package)[KEY].files)
    assert files_unchanged(constructor, files)
    os.mkfifo(package / "transformations/is_equal/pipe.tex")
    files["transformations/is_equal/pipe.tex"] = sha(b"")
    assert not files_unchanged(constructor, files)


_GATE_SCRIPT = """
import certdp.prelude as dp
from certdp.core.errors import FeatureNotEnabledError
try:
    dp.t.make_is_equal(dp.vector_domain(dp.atom_domain(T=int)), dp.symmetric_distance(), 1)
    print("ran")
except FeatureNotEnabledError:
    print("refused")
"""

_AUDIT_SCRIPT = """
from certdp.audit.discovery import package_root, discover
from certdp.audit.ledger import Ledger
from certdp.audit.status import status_of
package = package_root()
(c,) = [c for c in discover(package) if c.key == "transformations/is_equal/make_is_equal"]
print(status_of(c, Ledger(package)).state)
"""


def _in_copy(repo, script: str, timeout: float = 60) -> str:
    env = {"PYTHONPATH": str(repo / "src"), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        return subprocess.run(
            [sys.executable, "-c", script],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        ).stdout.strip()
    except subprocess.TimeoutExpired:
        return "hang"


def _proof_made_a_fifo(repo) -> None:
    proof = repo / FOLDER / "make_is_equal.tex"
    proof.unlink()
    os.mkfifo(proof)


def test_gate_a_fifo_at_the_proof_the_entry_names_is_refused_at_once(repo):
    """The cheap check finds the FIFO (not a regular file) and the full comparison, which
    reads the proof again, must not block on it either: refused."""
    assert _in_copy(repo, _GATE_SCRIPT) == "ran"  # the vetted copy runs freely
    _proof_made_a_fifo(repo)
    assert _in_copy(repo, _GATE_SCRIPT) == "refused"


def test_audit_a_fifo_at_the_proof_the_entry_names_is_outdated_at_once(repo):
    _proof_made_a_fifo(repo)
    assert _in_copy(repo, _AUDIT_SCRIPT) == "outdated"


@pytest.mark.parametrize("kind", ["fifo", "link"])
def test_a_ledger_that_is_not_a_regular_file_is_no_ledger_for_gate_and_audit(repo, deadline, kind):
    """The ledger is read by the regular-file reader too: a FIFO there (which ``is_file`` then
    ``read_text`` could meet between the two calls) is not waited on, and a symbolic link is
    not followed; the gate and the audit both read no vettings."""
    package = repo / "src/certdp"
    path = package / "proofs/vetting-ledger.json"
    assert KEY in read_ledger(package) and ledger_file_text(package) == path.read_text()
    if kind == "fifo":
        path.unlink()
        os.mkfifo(path)
    else:
        copy = repo / "ledger-copy.json"
        os.replace(path, copy)
        path.symlink_to(copy)
    assert ledger_file_text(package) is None
    assert dict(read_ledger(package)) == {}
    ledger = Ledger(package)
    assert not ledger.exists and ledger.entries == {}


def test_gate_a_fifo_at_the_ledger_is_refused_at_once(repo):
    path = repo / "src/certdp/proofs/vetting-ledger.json"
    path.unlink()
    os.mkfifo(path)
    assert _in_copy(repo, _GATE_SCRIPT) == "refused"


def test_the_audit_index_of_proof_documents_skips_what_is_not_a_regular_file(tmp_path, deadline):
    """The closure's index of proof documents (``ProofIndex.documents``, the trusted base)
    reads every ``*.tex`` of the package with the regular-file reader: a FIFO named ``x.tex``
    is not waited on (``read_text`` waited for ever) and a link is no document."""
    from certdp.audit.closure import ProofIndex

    package = tmp_path / "certdp"
    package.mkdir()
    (package / "real.tex").write_text("\\documentclass{article}\n")
    (tmp_path / "outside.tex").write_text("\\documentclass{article}\n")
    (package / "linked.tex").symlink_to(tmp_path / "outside.tex")
    os.mkfifo(package / "pipe.tex")
    assert ProofIndex(package).documents == [package / "real.tex"]


def test_a_negative_limit_reads_the_whole_file(tmp_path):
    """refgate finding 5: outside the lemma's precondition (the gate passes only 16), a
    negative limit reads to the end, as a buffered reader's ``read(-1)`` does (where it
    raises for a limit below -1)."""
    from certdp.audit.regular_file import read_regular_status

    path = tmp_path / "f"
    path.write_bytes(bytes(range(256)) * 300)
    for limit in (-1, -5):
        assert read_regular_status(str(path), limit)[0] == path.read_bytes()
    assert read_regular_status(str(path), 0)[0] == b""
    assert read_regular_status(str(path), 10)[0] == bytes(range(10))


def test_a_file_whose_size_under_reports_is_read_whole_in_few_reads(monkeypatch):
    """refgate finding 7: procfs files report size 0; after the first read each request asks
    for at least 64 KiB, so such a file is not read a byte at a time."""
    import os

    from certdp.audit import regular_file

    calls = []
    real = os.read

    def counted(descriptor, size):
        calls.append(size)
        return real(descriptor, size)

    monkeypatch.setattr(regular_file.os, "read", counted)
    data, status = regular_file.read_regular_status("/proc/self/smaps")
    assert status.st_size == 0 and len(data) > 1000
    assert min(calls[1:]) >= 1 << 16  # procfs may still answer a page per read
    assert len(calls) < len(data) // 100  # not one read per byte (st_size + 1 = 1 each time)
