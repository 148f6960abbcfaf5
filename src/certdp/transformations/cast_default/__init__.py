"""Cast every record to another type, a default where it does not convert (1-stable)."""

from .make_cast_default import make_cast_default, then_cast_default

__all__ = ["make_cast_default", "then_cast_default"]
