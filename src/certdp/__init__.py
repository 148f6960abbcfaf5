"""certdp: differential-privacy constructors, each with a proof and an executable contract.

Use it through the prelude, like OpenDP::

    import certdp.prelude as dp
"""

from certdp.core.errors import *  # noqa: F403
from certdp.core.errors import __all__ as __all__  # noqa: PLC0414

__version__ = "0.1.0"


def __getattr__(name: str):
    """``certdp.crosscheck`` loads on first use (it is callable: ``certdp.crosscheck(target)``),
    so ``import certdp`` stays light and never imports a crosscheck target."""
    if name == "crosscheck":
        import importlib

        return importlib.import_module("certdp.crosscheck")
    raise AttributeError(f"module 'certdp' has no attribute {name!r}")
