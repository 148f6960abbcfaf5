"""The position of every record among categories, None where absent (1-stable)."""

from .make_find import make_find, then_find

__all__ = ["make_find", "then_find"]
