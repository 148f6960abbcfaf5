"""``dp.t``: every transformation constructor (``make_*``) and its partial form (``then_*``).

Each constructor lives in its own subpackage next to its proof and contract;
the names are collected from the subpackages' ``__all__``.
"""

import sys

from certdp._discovery import export_constructors

__all__ = export_constructors(sys.modules[__name__])

# The postprocessors return Functions, not Transformations; OpenDP keeps them in ``dp.t`` too.
from certdp.transformations._postprocess import (  # noqa: E402
    make_cdf,
    make_consistent_b_ary_tree,
    make_quantiles_from_counts,
)

__all__ += ["make_consistent_b_ary_tree", "make_cdf", "make_quantiles_from_counts"]
