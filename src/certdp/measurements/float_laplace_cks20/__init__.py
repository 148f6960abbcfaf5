"""Exact discrete Laplace noise on one float, on the grid 2^k Z (CKS20)."""

from .make_float_laplace_cks20 import make_float_laplace_cks20, then_float_laplace_cks20

__all__ = ["make_float_laplace_cks20", "then_float_laplace_cks20"]
