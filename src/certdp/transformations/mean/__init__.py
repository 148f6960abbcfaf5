"""The mean of a known number of bounded floats: the sum, then a multiplication by 1 / size."""

from .make_mean import make_mean, then_mean

__all__ = ["make_mean", "then_mean"]
