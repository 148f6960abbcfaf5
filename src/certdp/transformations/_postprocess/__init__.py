"""Shared support of the postprocessors (``make_cdf``, ``make_consistent_b_ary_tree``,
``make_quantiles_from_counts``, each in its own folder): argument reading (arguments.tex),
their executable postconditions, their contract class and ``choose_branching_factor``."""
