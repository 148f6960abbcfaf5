"""Support shared by the selection measurements (noisy top-k, noisy max): the checks of their
arguments, their privacy map and their release function.  ``selection.tex`` is the lemma."""

from .selection import selection_arguments, selection_function, selection_map

__all__ = ["selection_arguments", "selection_function", "selection_map"]
