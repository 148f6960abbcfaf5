"""Saturating sum of bounded integers whose bounds share a sign."""

from .make_bounded_int_monotonic_sum import make_bounded_int_monotonic_sum

__all__ = ["make_bounded_int_monotonic_sum"]
