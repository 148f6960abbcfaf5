"""certdp: differential-privacy constructors, each with a proof and an executable contract.

Use it through the prelude, like OpenDP::

    import certdp.prelude as dp
"""

from certdp.core.errors import *  # noqa: F403
from certdp.core.errors import __all__ as __all__  # noqa: PLC0414

__version__ = "0.1.0"
