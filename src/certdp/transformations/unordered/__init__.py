"""Forget the order of datasets: insert-delete to symmetric, Hamming to change-one."""

from .make_unordered import make_unordered, then_unordered

__all__ = ["make_unordered", "then_unordered"]
