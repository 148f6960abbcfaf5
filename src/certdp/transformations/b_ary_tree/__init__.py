"""A vector of counts expanded into the complete b-ary tree of its partial sums."""

from .make_b_ary_tree import make_b_ary_tree, then_b_ary_tree

__all__ = ["make_b_ary_tree", "then_b_ary_tree"]
