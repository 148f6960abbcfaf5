"""The counts of a dataset's records in each of a known list of categories (1-stable to L1, L2)."""

from .make_count_by_categories import make_count_by_categories, then_count_by_categories

__all__ = ["make_count_by_categories", "then_count_by_categories"]
