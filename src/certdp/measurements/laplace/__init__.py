"""The Laplace mechanism on atoms and vectors of integers or floats (OpenDP's make_laplace)."""

from .make_laplace import make_laplace, then_laplace

__all__ = ["make_laplace", "then_laplace"]
