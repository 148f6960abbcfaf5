"""Split saturating sum (negatives and positives apart) of bounded integers."""

from .make_bounded_int_split_sum import make_bounded_int_split_sum

__all__ = ["make_bounded_int_split_sum"]
