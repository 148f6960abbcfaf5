"""Keep the rows of a data frame flagged by a bool column, and some of its columns."""

from .make_subset_by import make_subset_by

__all__ = ["make_subset_by"]
