"""Postprocessing functions (``dp.new_function``): what ``make_chain_pm`` applies to a release.
The module has a ``.tex`` lemma beside it."""

from .function import Function, new_function

__all__ = ["Function", "new_function"]
