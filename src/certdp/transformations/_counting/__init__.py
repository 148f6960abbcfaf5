"""Lemma code shared by the counting transformations (count_by_categories, count_by,
count_distinct)."""

from .counts import hashable_records, largest_count, records

__all__ = ["hashable_records", "largest_count", "records"]
