"""The postprocessor make_consistent_b_ary_tree (a Function: no privacy cost)."""

from .make_consistent_b_ary_tree import make_consistent_b_ary_tree

__all__ = ["make_consistent_b_ary_tree"]
