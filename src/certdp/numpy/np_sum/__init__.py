"""Column sums of a 2-D array with rows bounded in p-norm (L1/L2-stable)."""

from .make_np_sum import make_np_sum, then_np_sum

__all__ = ["make_np_sum", "then_np_sum"]
