"""Cast every record to another type, ``None`` where it does not convert (1-stable)."""

from .make_cast import make_cast, then_cast

__all__ = ["make_cast", "then_cast"]
