"""Lemma code shared by the row-by-row transformations (one function applied to every record)."""

from .rowmap import make_row_by_row, with_text_table

__all__ = ["make_row_by_row", "with_text_table"]
