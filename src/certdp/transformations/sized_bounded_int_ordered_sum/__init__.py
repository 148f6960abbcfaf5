"""Saturating left-to-right sum of a known number of ordered bounded integers."""

from .make_sized_bounded_int_ordered_sum import make_sized_bounded_int_ordered_sum

__all__ = ["make_sized_bounded_int_ordered_sum"]
