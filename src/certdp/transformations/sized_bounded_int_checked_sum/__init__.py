"""Exact sum of a known number of bounded integers, refused when it could overflow."""

from .make_sized_bounded_int_checked_sum import make_sized_bounded_int_checked_sum

__all__ = ["make_sized_bounded_int_checked_sum"]
