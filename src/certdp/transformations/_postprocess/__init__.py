"""Postprocessors (``Function`` constructors): the consistent b-ary tree, the cdf and the
quantiles from counts.  They read nothing but their argument, so they cost no privacy."""

from .cdf import make_cdf
from .consistent_b_ary_tree import make_consistent_b_ary_tree
from .quantiles_from_counts import make_quantiles_from_counts

__all__ = ["make_consistent_b_ary_tree", "make_cdf", "make_quantiles_from_counts"]
