"""Scale the rows of a 2-D array into a p-norm ball (1-stable)."""

from .make_np_clamp import make_np_clamp, then_np_clamp

__all__ = ["make_np_clamp", "then_np_clamp"]
