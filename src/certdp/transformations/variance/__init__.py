"""The variance of a known number of bounded floats, rounding accounted for."""

from .make_variance import make_variance, then_variance

__all__ = ["make_variance", "then_variance"]
