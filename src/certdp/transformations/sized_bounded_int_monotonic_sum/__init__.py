"""Saturating sum of a known number of integers whose bounds share a sign."""

from .make_sized_bounded_int_monotonic_sum import make_sized_bounded_int_monotonic_sum

__all__ = ["make_sized_bounded_int_monotonic_sum"]
