"""Whether a package file still has the bytes of a recorded sha256, remembered per process.

The gate checks the same files for many constructors (the shared lemmas and the gate's own
code are cited by every proof).  :func:`has_digest` hashes a file once per process and then
trusts its hash while the file's ``lstat`` (device, inode, size, modification and change
times in nanoseconds) is the one it had when it was hashed, but only for a file whose change
time was already at least :data:`MARGIN_NS` in the past when it was hashed: any later write,
truncation, rename over it or ``utime`` sets the change time to the clock's time then, so the
``lstat`` differs.  A file changed more recently is hashed again at every call.  Anything but
a regular file (a link, a folder, a FIFO, a device) is ``False`` and is never opened for
reading, and opening never blocks; the argument is in ``gate.tex`` (Lemma prop:known-bytes).
"""

from __future__ import annotations

import hashlib
import os
import time
from stat import S_ISREG

__all__ = ["has_digest", "MARGIN_NS"]

# proof: begin known-bytes
#: How long before a file is hashed its change time must lie for its hash to be remembered:
#: more than any file-system timestamp granularity and coarse-clock lag (milliseconds).
MARGIN_NS = 2_000_000_000

#: For each path string, the ``lstat`` key of the file when it was hashed and its sha256.
_known: dict[str, tuple[tuple[int, int, int, int, int], str]] = {}

_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def _key(mode: os.stat_result) -> tuple[int, int, int, int, int]:
    return (mode.st_dev, mode.st_ino, mode.st_size, mode.st_mtime_ns, mode.st_ctime_ns)


def has_digest(path: str, digest: str) -> bool:
    """Is ``path`` (the name itself, not followed) a regular file whose bytes have the sha256
    hex ``digest``?  ``False`` for a missing or invalid path, a symbolic link or any file that
    is not regular; other ``OSError`` (e.g. permission denied) is raised."""
    now = time.time_ns()  # label: clock-first
    try:
        before = os.lstat(path)  # label: lstat
    except (FileNotFoundError, NotADirectoryError, ValueError):
        return False
    if not S_ISREG(before.st_mode):  # label: regular-only
        return False
    key = _key(before)
    known = _known.get(path)
    if known is not None and known[0] == key:  # label: memo-hit
        return known[1] == digest
    descriptor = os.open(path, _OPEN_FLAGS)  # label: open-nofollow
    try:
        if not S_ISREG(os.fstat(descriptor).st_mode):  # label: opened-regular
            return False
        with os.fdopen(os.dup(descriptor), "rb") as file:
            found = hashlib.sha256(file.read()).hexdigest()  # label: hash
        after = os.fstat(descriptor)  # label: fstat-after
    finally:
        os.close(descriptor)
    if _key(after) == key and before.st_ctime_ns < now - MARGIN_NS:  # label: remember-old
        _known[path] = (key, found)
    return found == digest


# proof: end known-bytes
