"""The count of each distinct record of a dataset, as a map (keys not known in advance)."""

from .make_count_by import make_count_by, then_count_by

__all__ = ["make_count_by", "then_count_by"]
