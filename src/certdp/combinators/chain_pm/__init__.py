"""A measurement followed by a postprocessing function (OpenDP's ``make_chain_pm``)."""

from .make_chain_pm import make_chain_pm

__all__ = ["make_chain_pm"]
