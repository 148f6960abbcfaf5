"""The bytes of a package file, read only when it is a regular file, without ever blocking.

Every package file the gate and the audit read (proofs, lemma documents, models, code, the
files a ledger entry names) goes through :func:`read_regular`: the name is not followed when
it is a symbolic link, it is opened with ``O_NONBLOCK`` (a FIFO put there opens at once) and
read only when the opened object is a regular file; :func:`read_regular_status` also returns
the ``fstat`` of the descriptor read (the shadowing check's cached-bytecode header).  Anything else raises
:class:`NotRegularFile`, an ``OSError``; the argument is in ``gate.tex`` (regular-file reader).
"""

from __future__ import annotations

import errno
import hashlib
import os
from pathlib import Path
from stat import S_ISREG

__all__ = [
    "NotRegularFile",
    "has_digest",
    "read_regular",
    "read_regular_status",
    "read_regular_text",
]

# proof: begin regular-file
_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
#: The most bytes one ``os.read`` asks for (a file's size is only a hint; the last read is empty).
_CHUNK = 1 << 30
#: What each further read of a whole file asks for, at least (so a file whose ``fstat`` size
#: under-reports, as procfs's do, is not read a byte at a time).
_GROWN = 1 << 16


class NotRegularFile(OSError):
    """A package file that is a symbolic link, folder, FIFO, socket or device."""


def read_regular_status(path: str | Path, limit: int | None = None) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file ``path`` (the name itself, not followed), its first
    ``limit`` bytes when ``limit`` is given, and ``os.fstat`` of the descriptor they are read
    from (taken before the read: the status of the very file read); raises
    :class:`NotRegularFile` for anything else and ``OSError`` when it cannot be opened.
    Never blocks on opening (``O_NONBLOCK``) and reads only a regular file."""
    try:
        descriptor = os.open(path, _OPEN_FLAGS)  # label: open-nonblocking
    except OSError as error:
        if error.errno == errno.ELOOP:  # the final name is a symbolic link
            message = "a symbolic link, not a regular file"
            raise NotRegularFile(errno.ELOOP, message, str(path)) from None
        if error.errno == errno.ENXIO:  # label: open-socket
            message = "a socket or a device without its driver, not a regular file"
            raise NotRegularFile(errno.ENXIO, message, str(path)) from None
        raise
    try:
        status = os.fstat(descriptor)  # label: opened-status
        if not S_ISREG(status.st_mode):  # label: opened-regular
            raise NotRegularFile(errno.EINVAL, "not a regular file", str(path))
        # to the end of the file (an empty read), or until ``limit`` bytes are read; a
        # negative limit reads to the end, as a buffered reader's read(-1) does
        if limit is not None and limit < 0:  # label: read-negative
            limit = None
        wanted = status.st_size + 1 if limit is None else limit
        chunks = []
        while limit is None or wanted > 0:  # label: read-bytes
            chunk = os.read(descriptor, min(wanted, _CHUNK))  # label: read-chunk
            if not chunk:  # the end of the file
                break
            chunks.append(chunk)
            if limit is not None:
                wanted -= len(chunk)
            else:  # the size was only a hint (a file growing, or one fstat under-reports)
                wanted = max(wanted, _GROWN)  # label: read-grown
        return (chunks[0] if len(chunks) == 1 else b"".join(chunks)), status
    finally:
        os.close(descriptor)


def read_regular(path: str | Path) -> bytes:
    """The bytes of the regular file ``path`` (the name itself, not followed); raises
    :class:`NotRegularFile` for anything else and ``OSError`` when it cannot be opened.
    Never blocks on opening (``O_NONBLOCK``) and reads only a regular file."""
    return read_regular_status(path)[0]


def read_regular_text(path: str | Path) -> str:
    """:func:`read_regular` decoded as ``Path.read_text(encoding="utf-8")`` decodes."""
    import io

    return io.TextIOWrapper(io.BytesIO(read_regular(path)), encoding="utf-8").read()


def has_digest(path: str, digest: str) -> bool:
    """Is ``path`` a regular file (not followed) whose bytes have the sha256 hex ``digest``?
    ``False`` for a missing or invalid path and for anything but a regular file; another
    ``OSError`` (e.g. permission denied) is raised."""
    try:
        data = read_regular(path)  # label: read-regular
    except (FileNotFoundError, NotADirectoryError, NotRegularFile, ValueError):
        return False
    return hashlib.sha256(data).hexdigest() == digest  # label: compare-digest


# proof: end regular-file
