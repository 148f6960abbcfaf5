"""Functional composition of two transformations (OpenDP's ``make_chain_tt``)."""

from .make_chain_tt import make_chain_tt

__all__ = ["make_chain_tt"]
