"""Exact and conservatively rounded arithmetic on OpenDP's carrier types."""

from . import elementary, floats, integers
from .elementary import *  # noqa: F403
from .floats import *  # noqa: F403
from .integers import *  # noqa: F403

__all__ = sorted([*elementary.__all__, *floats.__all__, *integers.__all__])
