"""Split a text into the dataset of its lines (1-stable under the symmetric distance)."""

from .make_split_lines import make_split_lines

__all__ = ["make_split_lines"]
