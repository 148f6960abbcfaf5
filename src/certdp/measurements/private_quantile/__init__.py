"""A DP quantile: candidates scored against the quantile, the best one chosen by noisy max."""

from .make_private_quantile import make_private_quantile, then_private_quantile

__all__ = ["make_private_quantile", "then_private_quantile"]
