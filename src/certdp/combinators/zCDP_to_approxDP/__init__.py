"""zCDP implies approximate DP: rho becomes the privacy profile epsilon -> delta(epsilon)."""

from .make_zCDP_to_approxDP import make_zCDP_to_approxDP

__all__ = ["make_zCDP_to_approxDP"]
