"""Clamp every record of a vector into closed bounds (1-stable)."""

from .make_clamp import make_clamp, then_clamp

__all__ = ["make_clamp", "then_clamp"]
