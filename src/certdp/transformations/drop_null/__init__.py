"""Drop the null records (None or NaN) of a vector (1-stable; the length changes)."""

from .make_drop_null import make_drop_null, then_drop_null

__all__ = ["make_drop_null", "then_drop_null"]
