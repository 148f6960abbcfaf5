"""Resize a vector to a known number of records: pad with a constant or keep a random subset."""

from .make_resize import make_resize, then_resize

__all__ = ["make_resize", "then_resize"]
