"""Private selection from private candidates: repeat a scored release until one clears a
threshold, stopping at random after each miss."""

from .make_select_private_candidate import make_select_private_candidate

__all__ = ["make_select_private_candidate"]
