"""Split saturating sum of a known number of bounded integers."""

from .make_sized_bounded_int_split_sum import make_sized_bounded_int_split_sum

__all__ = ["make_sized_bounded_int_split_sum"]
