"""Non-adaptive sequential composition of measurements under pure DP or zCDP."""

from .make_composition import make_composition

__all__ = ["make_composition"]
