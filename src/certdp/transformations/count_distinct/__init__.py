"""The number of distinct records of a dataset (1-stable)."""

from .make_count_distinct import make_count_distinct, then_count_distinct

__all__ = ["make_count_distinct", "then_count_distinct"]
