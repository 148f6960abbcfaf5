"""Exact discrete Laplace noise on a vector of floats, on the grid 2^k Z (CKS20)."""

from .make_vector_float_laplace_cks20 import (
    make_vector_float_laplace_cks20,
    then_vector_float_laplace_cks20,
)

__all__ = ["make_vector_float_laplace_cks20", "then_vector_float_laplace_cks20"]
