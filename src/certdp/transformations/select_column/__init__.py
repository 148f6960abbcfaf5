"""One column of a data frame as a vector (1-stable; schema errors only)."""

from .make_select_column import make_select_column

__all__ = ["make_select_column"]
