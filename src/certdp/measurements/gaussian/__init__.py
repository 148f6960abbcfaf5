"""The Gaussian mechanism under zCDP on atoms and vectors of integers or floats (OpenDP's
make_gaussian): exact discrete Gaussian noise (CKS20), on the grid 2^k Z for floats."""

from .make_gaussian import make_gaussian, then_gaussian

__all__ = ["make_gaussian", "then_gaussian"]
