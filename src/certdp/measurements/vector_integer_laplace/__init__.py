"""Exact discrete Laplace noise on a vector of integers (CKS20)."""

from .make_vector_integer_laplace import make_vector_integer_laplace, then_vector_integer_laplace

__all__ = ["make_vector_integer_laplace", "then_vector_integer_laplace"]
