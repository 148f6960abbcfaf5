"""Pure DP implies zCDP: epsilon becomes rho = epsilon^2 / 2."""

from .make_pureDP_to_zCDP import make_pureDP_to_zCDP

__all__ = ["make_pureDP_to_zCDP"]
