"""The postprocessor make_cdf (a Function: no privacy cost)."""

from .make_cdf import make_cdf

__all__ = ["make_cdf"]
