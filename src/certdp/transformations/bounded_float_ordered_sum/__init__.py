"""Saturating sum of the first ``size_limit`` bounded floats, in their order."""

from .make_bounded_float_ordered_sum import make_bounded_float_ordered_sum

__all__ = ["make_bounded_float_ordered_sum"]
