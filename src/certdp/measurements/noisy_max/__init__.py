"""Noisy max: the index of the largest noisy score (OpenDP's make_noisy_max)."""

from .make_noisy_max import make_noisy_max, then_noisy_max

__all__ = ["make_noisy_max", "then_noisy_max"]
