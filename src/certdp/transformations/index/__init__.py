"""The category at every index record, a null value past the end (1-stable)."""

from .make_index import make_index, then_index

__all__ = ["make_index", "then_index"]
