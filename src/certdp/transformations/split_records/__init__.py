"""Split every line of a vector into its trimmed fields (a row map, 1-stable)."""

from .make_split_records import make_split_records

__all__ = ["make_split_records"]
