"""Sum of a known number of bounded floats, refused when it could overflow."""

from .make_sized_bounded_float_checked_sum import make_sized_bounded_float_checked_sum

__all__ = ["make_sized_bounded_float_checked_sum"]
