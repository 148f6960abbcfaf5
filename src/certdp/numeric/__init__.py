"""Exact and conservatively rounded arithmetic on OpenDP's carrier types."""

from . import floats, integers
from .floats import *  # noqa: F403
from .integers import *  # noqa: F403

__all__ = sorted([*floats.__all__, *integers.__all__])
