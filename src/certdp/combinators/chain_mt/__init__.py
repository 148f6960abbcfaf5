"""A transformation followed by a measurement (OpenDP's ``make_chain_mt``)."""

from .make_chain_mt import make_chain_mt

__all__ = ["make_chain_mt"]
