"""Support of the Gaussian measurement: its zCDP privacy map and the L2 rounding distance.
Each module has a ``.tex`` lemma beside it."""

from .gaussian_map import gaussian_map, l2_relaxation

__all__ = ["gaussian_map", "l2_relaxation"]
