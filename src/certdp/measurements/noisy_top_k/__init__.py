"""Noisy top-k selection of score indices (OpenDP's make_noisy_top_k)."""

from .make_noisy_top_k import make_noisy_top_k, then_noisy_top_k

__all__ = ["make_noisy_top_k", "then_noisy_top_k"]
