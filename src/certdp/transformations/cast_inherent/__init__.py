"""Cast every record to a float type, NaN where it does not convert (1-stable)."""

from .make_cast_inherent import make_cast_inherent, then_cast_inherent

__all__ = ["make_cast_inherent", "then_cast_inherent"]
