"""Column sums of a 2-D float array by a blocked summation whose rounding error is proven.

The algorithm (``column_sum``), in float64 for both float32 and float64 data:

1. cut the rows into chunks of at most ``CHUNK_ROWS`` rows; pad each chunk with zero rows to a
   multiple of ``STRANDS`` rows and view it as ``L`` rows of ``STRANDS * k`` values, so that
   row ``i`` of the chunk lands in strand ``i mod STRANDS``;
2. sum each chunk along its ``L`` rows with one numpy ``add.reduce`` (every strand of every
   column is a sum of ``L`` values);
3. fold the ``STRANDS`` strand sums of each chunk pairwise, level by level;
4. combine the chunk sums pairwise, level by level (an odd one out waits for the next level);
5. round the float64 result to the output type.

Every input value reaches its column's float64 sum through at most ``depth(n)`` roundings
(``make_np_sum.tex``), whatever order numpy uses inside step 2.
"""

from __future__ import annotations

import numpy as np

__all__ = ["STRANDS", "CHUNK_ROWS", "depth", "column_sum"]

# proof: begin depth
#: Strands per chunk (a power of two): rows ``i`` and ``i + STRANDS`` share a strand.
STRANDS = 64  # label: strands-count
LOG2_STRANDS = 6  # label: log2-strands
#: Rows per chunk (a multiple of ``STRANDS``).
CHUNK_ROWS = 1 << 14  # label: chunk-rows


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)  # label: ceil-div


def depth(n: int) -> int:
    """An upper bound on the number of float64 additions between any of ``n`` summands and
    its column's float64 sum."""
    if n <= 0:
        return 0
    strand_rows = _ceil_div(min(n, CHUNK_ROWS), STRANDS)
    chunks = _ceil_div(n, CHUNK_ROWS)
    return strand_rows + LOG2_STRANDS + (chunks - 1).bit_length()  # label: depth


# proof: end depth


# proof: begin column-sum
def column_sum(array: np.ndarray, dtype) -> np.ndarray:
    """The column sums of a 2-D float array, as a 1-D array of ``dtype``."""
    n, k = array.shape
    if k == 0:
        return np.zeros(0, dtype=dtype)  # label: no-columns
    chunks = _ceil_div(n, CHUNK_ROWS)
    partial = np.zeros((max(chunks, 1), STRANDS, k), dtype=np.float64)  # label: partial
    for c in range(chunks):
        block = array[c * CHUNK_ROWS : (c + 1) * CHUNK_ROWS]
        rows = block.shape[0]
        if rows % STRANDS or block.dtype != np.float64:
            padded = np.zeros((_ceil_div(rows, STRANDS) * STRANDS, k), dtype=np.float64)
            padded[:rows] = block  # label: pad
            block = padded
        strands = block.reshape(-1, STRANDS * k)  # label: strands
        np.add.reduce(strands, axis=0, out=partial[c].reshape(STRANDS * k))  # label: reduce
    while partial.shape[1] > 1:
        partial = partial[:, 0::2] + partial[:, 1::2]  # label: fold-strands
    sums = partial[:, 0]
    while sums.shape[0] > 1:
        pairs = sums[0 : sums.shape[0] - 1 : 2] + sums[1::2]  # label: fold-chunks
        sums = np.concatenate([pairs, sums[sums.shape[0] - 1 :]]) if sums.shape[0] % 2 else pairs
    return sums[0].astype(dtype)  # label: round-output


# proof: end column-sum
