"""Sum of at most ``size_limit`` bounded floats (a random subset beyond), refused when it
could overflow."""

from .make_bounded_float_checked_sum import make_bounded_float_checked_sum

__all__ = ["make_bounded_float_checked_sum"]
