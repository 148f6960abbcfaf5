"""``dp.m``: every measurement constructor (``make_*``) and its partial form (``then_*``).

Each constructor lives in its own subpackage next to its proof and contract;
the names are collected from the subpackages' ``__all__``.
"""

import sys

from certdp._discovery import export_constructors, prelude_name

__all__ = export_constructors(sys.modules[__name__])


def __getattr__(name: str):
    return prelude_name(__name__, name)  # OpenDP's module carries the prelude's names too
