"""The sorted distinct values of a 1-d integer array, as ``np.unique`` gives them, without numpy.ma.

Guarantee (distinct.tex): for a 1-d array of integers (a NumPy integer dtype, or dtype object
holding Python ints), ``sorted_distinct(values, first=, inverse=, counts=)`` returns what
``np.unique(values, return_index=first, return_inverse=inverse, return_counts=counts)`` returns:
the distinct values in increasing order (same dtype), and when asked the index of each value's
first occurrence, for every position the index of its value among them, and how often each
occurs (intp arrays). ``np.unique`` of NumPy 2.3 and later (2.4 checked) imports numpy.ma (about
15 ms) on its first call without ``return_*`` flags; this never touches it.
"""

from __future__ import annotations

import numpy as np

__all__ = ["sorted_distinct"]


# proof: begin sorted-distinct
def sorted_distinct(
    values: np.ndarray, *, first: bool = False, inverse: bool = False, counts: bool = False
):
    """The distinct entries of the 1-d integer array ``values`` in increasing order, followed
    (a tuple, in this order) by their first indices if ``first``, the index of each entry's
    value among them if ``inverse``, and their numbers of occurrences if ``counts``."""
    # a stable sort keeps equal entries in the order of their positions
    order = np.argsort(values, kind="stable" if first else "quicksort")  # label: sd-order
    ordered = values[order]  # label: sd-ordered
    starts = np.empty(ordered.shape, dtype=bool)  # label: sd-starts
    starts[:1] = True
    starts[1:] = ordered[1:] != ordered[:-1]  # an entry unlike the one before  # label: sd-new
    result = [ordered[starts]]  # label: sd-values
    if first:
        result.append(order[starts])  # label: sd-first
    if inverse:
        places = np.empty(order.shape, dtype=np.intp)
        places[order] = np.cumsum(starts) - 1  # label: sd-inverse
        result.append(places)
    if counts:
        bounds = np.append(np.flatnonzero(starts), ordered.size)  # label: sd-bounds
        result.append(np.diff(bounds))  # label: sd-counts
    return result[0] if len(result) == 1 else tuple(result)  # label: sd-return


# proof: end sorted-distinct
