"""Saturating sum of a known number of bounded floats in a fixed order."""

from .make_sized_bounded_float_ordered_sum import make_sized_bounded_float_ordered_sum

__all__ = ["make_sized_bounded_float_ordered_sum"]
