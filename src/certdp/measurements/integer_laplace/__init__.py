"""Exact discrete Laplace noise on one integer (CKS20)."""

from .make_integer_laplace import make_integer_laplace, then_integer_laplace

__all__ = ["make_integer_laplace", "then_integer_laplace"]
