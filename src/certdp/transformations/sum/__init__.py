"""The sum of bounded numbers, dispatched to the cheapest sound specialised sum."""

from .make_sum import make_sum, then_sum

__all__ = ["make_sum", "then_sum"]
