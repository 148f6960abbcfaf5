"""Uniform random bits and integers from the operating system's CSPRNG.

Guarantee (uniform.tex): assuming the bytes of ``secrets.token_bytes`` are
independent and uniform, every draw of :meth:`EntropySource.bits` is uniform on
``[0, 2**n)``, every draw of :meth:`EntropySource.below` is uniform on
``[0, n)``, and distinct draws are independent.

Bytes are fetched from the OS in blocks, so that a draw costs a slice of a
buffer rather than a system call.  Each thread has its own source, and a forked
child process starts with an empty one, so no byte is ever handed out twice.
"""

from __future__ import annotations

import os
import secrets
import threading

import numpy as np

from certdp.core.errors import FailedFunctionError, shown

from ._arguments import exact_inputs

__all__ = ["EntropySource", "entropy_source", "sample_uniform_bits", "sample_uniform_below"]

# proof: begin entropy-source
#: Bytes fetched from the OS per refill.
BLOCK_BYTES = 1 << 14


class EntropySource:
    """A consumer of OS random bytes; every byte it hands out is used once."""

    __slots__ = ("_buffer", "_position", "_word", "_word_bits")

    def __init__(self):
        self._buffer = b""
        self._position = 0
        self._word = 0  # unused random bits, consumed from the lowest
        self._word_bits = 0

    def _bytes(self, count: int) -> bytes:
        """``count`` fresh random bytes."""
        start = self._position
        end = start + count
        if end > len(self._buffer):  # label: refill
            if count > BLOCK_BYTES:
                return secrets.token_bytes(count)
            # the unread tail of the old block is dropped, never reused
            self._buffer = secrets.token_bytes(BLOCK_BYTES)
            start, end = 0, count
        self._position = end
        return self._buffer[start:end]

    def bits(self, n: int) -> int:
        """A uniform integer in ``[0, 2**n)`` (``n >= 0``)."""
        count = (n + 7) >> 3
        # 8 * count uniform bits; dropping the lowest 8 * count - n keeps the top n
        return int.from_bytes(self._bytes(count), "little") >> (-n & 7)  # label: bits

    def bit(self) -> int:
        """A uniform bit, 0 or 1."""
        if not self._word_bits:
            self._word = int.from_bytes(self._bytes(8), "little")  # label: word
            self._word_bits = 64
        self._word_bits -= 1
        bit = self._word & 1  # label: bit
        self._word >>= 1
        return bit

    def words(self, count: int) -> np.ndarray:
        """``count`` uniform integers in ``[0, 2**64)``, as a numpy ``uint64`` array."""
        return np.frombuffer(self._bytes(8 * count), dtype="<u8")  # label: words

    def bit_array(self, count: int) -> np.ndarray:
        """``count`` uniform bits, as a numpy ``uint8`` array of zeros and ones."""
        packed = np.frombuffer(self._bytes((count + 7) >> 3), dtype=np.uint8)
        return np.unpackbits(packed)[:count]  # label: bit-array

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (``n >= 1``), by rejection."""
        width = (n - 1).bit_length()  # label: width
        while True:
            candidate = self.bits(width)  # label: candidate
            if candidate < n:
                return candidate


_local = threading.local()


def entropy_source() -> EntropySource:
    """This thread's entropy source."""
    try:
        return _local.source  # label: thread-local
    except AttributeError:
        _local.source = EntropySource()
        return _local.source


def _forget_after_fork() -> None:
    global _local
    _local = threading.local()  # label: fork-reset


os.register_at_fork(after_in_child=_forget_after_fork)


# proof: end entropy-source


@exact_inputs
def sample_uniform_bits(n: int) -> int:
    """A uniform integer in ``[0, 2**n)`` from the OS CSPRNG."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise FailedFunctionError(f"must be a non-negative integer, got {shown(n)}", parameter="n")
    return entropy_source().bits(n)


@exact_inputs
def sample_uniform_below(n: int) -> int:
    """A uniform integer in ``[0, n)`` from the OS CSPRNG."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise FailedFunctionError(f"must be a positive integer, got {shown(n)}", parameter="n")
    return entropy_source().below(n)
