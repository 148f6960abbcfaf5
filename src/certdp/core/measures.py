"""Privacy measures: how far apart two output distributions may be."""

from __future__ import annotations

__all__ = ["Measure", "MaxDivergence", "max_divergence"]


class Measure:
    """A divergence between distributions; distances are ``distance_type`` values."""

    distance_type = "f64"

    def __eq__(self, other) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self).__name__)

    def __repr__(self) -> str:
        return type(self).__name__


class MaxDivergence(Measure):
    """Pure differential privacy: sup over events of ln(P[M(x) in S] / P[M(x') in S])."""


def max_divergence() -> MaxDivergence:
    """The max-divergence (ε of pure DP)."""
    return MaxDivergence()
