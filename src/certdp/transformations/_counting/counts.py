"""What the counting transformations share (the lemmas: counts.tex).

* ``hashable_records(element)`` refuses float records (NaN is unequal to itself and
  ``-0.0 == 0.0``, so Python's hashing would not identify records as datasets do), as OpenDP does.
* ``records(data)`` is the list of exact Python values of an admitted dataset.
* ``largest_count(TO)`` is the largest count a value of ``TO`` holds exactly.
"""

from __future__ import annotations

import numpy as np

from certdp.core.errors import MakeTransformationError, type_mismatch

__all__ = ["hashable_records", "largest_count", "records"]


# proof: begin counts
def hashable_records(element) -> None:
    """Refuse an element domain of a float type (``TypeError`` form, naming ``input_domain``)."""
    if element.T.is_float:  # label: hashable
        raise type_mismatch(MakeTransformationError)(
            f"the elements must be hashable (an integer type, bool or String), not {element.T}",
            parameter="input_domain",
        )


def records(data) -> list:
    """The admitted dataset ``data`` as a list of exact Python values."""
    if type(data) is np.ndarray:
        return data.tolist()  # label: records-array
    # admission hands a tuple through as given: a list of its items, so that every caller
    # may concatenate, slice and compare what it gets as a list
    return list(data) if type(data) is tuple else data  # label: records


def largest_count(TO) -> int:
    """The largest count a value of ``TO`` holds exactly: its maximum for an integer type,
    ``2**(mantissa bits + 1)`` for a float type."""
    return TO.max if TO.is_integer else 1 << (TO.mantissa_bits + 1)  # label: largest-count


# proof: end counts
