"""``dp.c``: every combinator constructor (``make_*``): compositions and conversions between
privacy measures.

Each constructor lives in its own subpackage next to its proof and contract;
the names are collected from the subpackages' ``__all__``.
"""

import sys

from certdp._discovery import export_constructors

__all__ = export_constructors(sys.modules[__name__])
