"""One (epsilon, delta) pair seen as the privacy profile it implies."""

from .make_fixed_approxDP_to_approxDP import make_fixed_approxDP_to_approxDP

__all__ = ["make_fixed_approxDP_to_approxDP"]
