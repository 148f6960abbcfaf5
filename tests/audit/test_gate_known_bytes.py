"""The gate's file hashes remembered per process (``certdp.audit.known_bytes``) never hide a
change the gate saw before (gate.tex, Lemma prop:known-bytes), and a file that is not a
regular file is refused without being read (a FIFO named in a ledger entry no longer hangs).

Files copied by a test are new, so the tests that need a remembered hash set ``MARGIN_NS``
to 0 and wait 50 ms (more than the coarse clock's tick) between a write and a check.
"""

import hashlib
import os
import signal
import time
from pathlib import Path

import pytest

from certdp.audit import known_bytes
from certdp.audit.discovery import discover
from certdp.audit.ledger import files_unchanged, read_ledger
from certdp.audit.status import UP_TO_DATE, runtime_status_of

from .conftest import FOLDER

KEY = "transformations/is_equal/make_is_equal"
TICK = 0.05


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def no_margin(monkeypatch):
    monkeypatch.setattr(known_bytes, "MARGIN_NS", 0)
    monkeypatch.setattr(known_bytes, "_known", {})


@pytest.fixture
def opens(monkeypatch):
    """The paths ``has_digest`` opens for reading."""
    opened: list[str] = []
    real = os.open
    monkeypatch.setattr(
        os, "open", lambda path, *a, **k: opened.append(path) or real(path, *a, **k)
    )
    return opened


@pytest.fixture
def deadline():
    """Fail instead of hanging: an alarm after 10 s."""

    def expired(*_):
        raise TimeoutError("the check blocked")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_a_remembered_file_is_not_read_again(tmp_path, no_margin, opens):
    file = tmp_path / "a.tex"
    file.write_bytes(b"vetted text\n")
    time.sleep(TICK)
    assert known_bytes.has_digest(str(file), sha(b"vetted text\n"))
    assert known_bytes.has_digest(str(file), sha(b"vetted text\n"))
    assert not known_bytes.has_digest(str(file), sha(b"other text!\n"))
    assert opens == [str(file)]


def test_a_same_size_edit_after_a_remembered_check_is_seen(tmp_path, no_margin):
    file = tmp_path / "a.py"
    file.write_bytes(b"x = a == b\n")
    time.sleep(TICK)
    assert known_bytes.has_digest(str(file), sha(b"x = a == b\n"))
    assert str(file) in known_bytes._known
    time.sleep(TICK)
    file.write_bytes(b"x = a != b\n")  # same size, written in place
    assert not known_bytes.has_digest(str(file), sha(b"x = a == b\n"))
    assert known_bytes.has_digest(str(file), sha(b"x = a != b\n"))


def test_an_edit_that_keeps_size_and_modification_time_is_seen(tmp_path, no_margin):
    file = tmp_path / "a.py"
    file.write_bytes(b"x = a == b\n")
    time.sleep(TICK)
    before = os.stat(file)
    assert known_bytes.has_digest(str(file), sha(b"x = a == b\n"))
    time.sleep(TICK)
    file.write_bytes(b"x = a != b\n")
    os.utime(file, ns=(before.st_atime_ns, before.st_mtime_ns))  # the change time still moves
    assert os.stat(file).st_mtime_ns == before.st_mtime_ns
    assert not known_bytes.has_digest(str(file), sha(b"x = a == b\n"))


def test_a_file_replaced_by_rename_is_seen(tmp_path, no_margin):
    file, new = tmp_path / "a.py", tmp_path / "a.py.new"
    file.write_bytes(b"x = a == b\n")
    new.write_bytes(b"x = a != b\n")
    time.sleep(TICK)
    assert known_bytes.has_digest(str(file), sha(b"x = a == b\n"))
    os.replace(new, file)  # as git checkout does
    assert not known_bytes.has_digest(str(file), sha(b"x = a == b\n"))


def test_a_recently_changed_file_is_hashed_at_every_check(tmp_path, monkeypatch, opens):
    monkeypatch.setattr(known_bytes, "_known", {})
    file = tmp_path / "a.py"
    file.write_bytes(b"x = a == b\n")  # changed now: within the real 2 s margin
    assert known_bytes.has_digest(str(file), sha(b"x = a == b\n"))
    file.write_bytes(b"x = a != b\n")  # at once, possibly within one clock tick
    assert not known_bytes.has_digest(str(file), sha(b"x = a == b\n"))
    assert opens == [str(file), str(file)]
    assert known_bytes._known == {}


@pytest.mark.parametrize("kind", ["fifo", "folder", "link", "link-loop", "missing"])
def test_anything_but_a_regular_file_is_false_without_being_read(
    tmp_path, no_margin, opens, deadline, kind
):
    path = tmp_path / "x.tex"
    target = tmp_path / "real.tex"
    target.write_bytes(b"text\n")
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "link":
        path.symlink_to(target)
    elif kind == "link-loop":
        path.symlink_to(tmp_path / "x.tex")
    assert not known_bytes.has_digest(str(path), sha(b"text\n"))
    assert opens == []


def test_a_fifo_named_in_an_entry_is_refused_by_the_cheap_check_without_hanging(
    repo, no_margin, deadline
):
    package = repo / "src/certdp"
    (constructor,) = [c for c in discover(package) if c.key == KEY]
    files = dict(read_ledger(package)[KEY].files)
    assert files_unchanged(constructor, files)
    os.mkfifo(package / "transformations/is_equal/pipe.tex")
    files["transformations/is_equal/pipe.tex"] = sha(b"")
    assert not files_unchanged(constructor, files)


def _status(package: Path) -> str:
    (constructor,) = [c for c in discover(package) if c.key == KEY]
    return runtime_status_of(constructor, read_ledger(package)).state


def test_a_proof_edited_after_a_first_gate_check_in_the_process_is_refused(repo, no_margin):
    package = repo / "src/certdp"
    time.sleep(TICK)
    assert _status(package) == UP_TO_DATE
    assert any("make_is_equal.tex" in path for path in known_bytes._known)
    time.sleep(TICK)
    proof = repo / FOLDER / "make_is_equal.tex"
    text = proof.read_text()
    proof.write_text(text)  # rewritten with the same text: still up to date
    assert _status(package) == UP_TO_DATE
    time.sleep(TICK)
    index = text.index("\\begin{document}")
    proof.write_text(text[:index] + "%" + text[index + 1 :])  # one byte, same size
    assert _status(package) != UP_TO_DATE


def test_a_not_imported_module_edited_after_a_first_gate_check_is_refused(repo, no_margin):
    package = repo / "src/certdp"
    time.sleep(TICK)
    assert _status(package) == UP_TO_DATE
    time.sleep(TICK)
    code = repo / FOLDER / "make_is_equal.py"
    text = code.read_text()
    assert text.count(" == ") >= 1
    code.write_text(text.replace(" == ", " != ", 1))  # same size, in place
    assert _status(package) != UP_TO_DATE


def test_a_pyc_written_after_a_first_gate_check_is_refused(repo, no_margin):
    package = repo / "src/certdp"
    time.sleep(TICK)
    assert _status(package) == UP_TO_DATE
    source = repo / FOLDER / "make_is_equal.py"
    cached = Path(__import__("importlib.util").util.cache_from_source(str(source)))
    cached.parent.mkdir(exist_ok=True)
    cached.write_bytes(b"\0" * 4 + (1).to_bytes(4, "little") + b"\0" * 8)  # unchecked hash
    assert _status(package) != UP_TO_DATE
