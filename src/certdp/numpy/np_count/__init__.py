"""The number of rows of a 2-D array (1-stable; 0-stable for a known size)."""

from .make_np_count import make_np_count, then_np_count

__all__ = ["make_np_count", "then_np_count"]
