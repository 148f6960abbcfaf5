"""Keep at most ``limit`` rows of a 2-D array, as a function of the multiset of its rows.

The rows are ordered by a total order on bit patterns: first by a keyed 64-bit hash of the
row's bits (the key is drawn from the OS CSPRNG when the selection is built, so the kept rows
look like a random sample), then by the row's bit words themselves.  Identical rows compare
equal and distinct rows never do, so the ``limit`` smallest rows form a multiset that depends
only on the multiset of rows, not on their order.  Inserting one row into a dataset of at
least ``limit`` rows changes that multiset by at most one swap (``make_np_sum.tex``).
"""

from __future__ import annotations

import secrets

import numpy as np

__all__ = ["RowSelection"]

# proof: begin row-selection
_WORD = {8: np.uint64, 4: np.uint32, 2: np.uint16, 1: np.uint8}  # label: word-types


class RowSelection:
    """The ``limit`` smallest rows in a keyed total order on row bit patterns."""

    def __init__(self, num_columns: int):
        self.multipliers = np.array(
            [secrets.randbits(64) | 1 for _ in range(num_columns)], dtype=np.uint64
        )  # label: multipliers
        self.offset = np.uint64(secrets.randbits(64))  # label: offset

    # proof: begin select
    def words(self, array: np.ndarray) -> np.ndarray:
        """The bit patterns of the entries, as unsigned 64-bit integers."""
        contiguous = np.ascontiguousarray(array)
        return contiguous.view(_WORD[array.dtype.itemsize]).astype(np.uint64)  # label: words

    def keys(self, words: np.ndarray) -> np.ndarray:
        """A keyed hash of each row's words (multiply-xorshift; arithmetic modulo 2**64)."""
        hashed = np.full(words.shape[0], self.offset, dtype=np.uint64)
        for j in range(words.shape[1]):
            hashed = (hashed ^ words[:, j]) * self.multipliers[j]
            hashed ^= hashed >> np.uint64(29)
        return hashed

    def select(self, array: np.ndarray, limit: int) -> np.ndarray:
        """The rows of ``array`` that come first in the order, at most ``limit`` of them."""
        if array.shape[0] <= limit:
            return array
        words = self.words(array)
        # lexsort: the last key is the primary one
        order = np.lexsort(
            (*(words[:, j] for j in reversed(range(words.shape[1]))), self.keys(words))
        )
        return array[order[:limit]]  # label: keep-first

    # proof: end select


# proof: end row-selection
