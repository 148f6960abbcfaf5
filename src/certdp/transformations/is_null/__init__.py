"""Tell, for every record, whether it is null (None or NaN) (1-stable)."""

from .make_is_null import make_is_null, then_is_null

__all__ = ["make_is_null", "then_is_null"]
