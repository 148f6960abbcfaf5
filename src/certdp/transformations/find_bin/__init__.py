"""The bin of every record among sorted edges (1-stable)."""

from .make_find_bin import make_find_bin, then_find_bin

__all__ = ["make_find_bin", "then_find_bin"]
