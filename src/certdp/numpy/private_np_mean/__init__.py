"""A DP mean of the rows of a 2-D array: clamp, sum, Laplace or Gaussian noise, divide."""

from .make_private_np_mean import make_private_np_mean, then_private_np_mean

__all__ = ["make_private_np_mean", "then_private_np_mean"]
