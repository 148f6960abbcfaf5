"""A uniformly random permutation of a list (Fisher--Yates), from the OS CSPRNG.

Guarantee (shuffle.tex): ``shuffled(records)`` returns ``[records[p(0)], ..., records[p(m-1)]]``
for a permutation ``p`` of ``range(m)`` drawn uniformly from all ``m!`` permutations,
independently of everything computed before; the input list is not modified.
"""

from __future__ import annotations

from .uniform import entropy_source

__all__ = ["shuffled"]


# proof: begin fisher-yates
def shuffled(records) -> list:
    """A new list holding the records of ``records`` in a uniformly random order."""
    result = list(records)  # label: copy
    source = entropy_source()
    for i in range(len(result) - 1, 0, -1):  # label: loop
        j = source.below(i + 1)  # label: draw
        result[i], result[j] = result[j], result[i]  # label: swap
    return result


# proof: end fisher-yates
