"""The number of records of a vector, saturating at the output type's largest count (1-stable)."""

from .make_count import make_count, then_count

__all__ = ["make_count", "then_count"]
