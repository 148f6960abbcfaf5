"""Saturating left-to-right sum of bounded integers under the insert-delete distance."""

from .make_bounded_int_ordered_sum import make_bounded_int_ordered_sum

__all__ = ["make_bounded_int_ordered_sum"]
