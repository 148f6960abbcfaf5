"""The sums of squares and cross products ``X^T X`` of a 2-D float array (record-space map)."""

from .make_np_sscp import make_np_sscp, then_np_sscp

__all__ = ["make_np_sscp", "then_np_sscp"]
