"""The postprocessor make_quantiles_from_counts (a Function: no privacy cost)."""

from .make_quantiles_from_counts import make_quantiles_from_counts

__all__ = ["make_quantiles_from_counts"]
