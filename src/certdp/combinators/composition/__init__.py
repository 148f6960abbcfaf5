"""Non-adaptive sequential composition of measurements under pure DP, zCDP and their
approximate forms."""

from .make_composition import make_basic_composition, make_composition

__all__ = ["make_composition", "make_basic_composition"]
