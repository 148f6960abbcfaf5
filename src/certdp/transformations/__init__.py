"""``dp.t``: every transformation constructor (``make_*``) and its partial form (``then_*``).

Each constructor lives in its own subpackage next to its proof and contract;
the names are collected from the subpackages' ``__all__``.
"""

import sys

from certdp._discovery import export_constructors

__all__ = export_constructors(sys.modules[__name__])


# A pure helper OpenDP keeps in ``dp.t`` (no data read, no constructor).
from certdp.transformations._postprocess.branching import choose_branching_factor  # noqa: E402

__all__ += ["choose_branching_factor"]
