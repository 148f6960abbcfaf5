"""Elementwise equality with a value (1-stable)."""

from .make_is_equal import make_is_equal, then_is_equal

__all__ = ["make_is_equal", "then_is_equal"]
