"""Metrics that count changed records or values: ``change_one_distance``, ``hamming_distance``,
``discrete_distance``, with exact distances (the lemmas: change_metrics.tex).

* ``ChangeOneDistance``: between datasets of equal size, the fewest records to change (order
  ignored): half the symmetric distance; infinite for different sizes.
* ``HammingDistance``: between datasets of equal length, the number of positions whose records
  differ (order counts); infinite for different lengths.
* ``DiscreteDistance``: ``0`` between the same value and ``1`` between different values.
"""

from __future__ import annotations

from .metrics import INFINITY, Metric, SymmetricDistance, record_key

__all__ = [
    "ChangeOneDistance",
    "HammingDistance",
    "DiscreteDistance",
    "change_one_distance",
    "hamming_distance",
    "discrete_distance",
]


# proof: begin change-metrics
class ChangeOneDistance(Metric):
    """Records to change (order ignored) between datasets of equal size."""

    def distance(self, a, b):
        if len(a) != len(b):  # label: change-one-sizes
            return INFINITY
        return SymmetricDistance().distance(a, b) // 2  # label: change-one-half


class HammingDistance(Metric):
    """Positions whose records differ between datasets of equal length."""

    def distance(self, a, b):
        if len(a) != len(b):  # label: hamming-lengths
            return INFINITY
        return sum(1 for x, y in zip(a, b) if record_key(x) != record_key(y))  # label: hamming


class DiscreteDistance(Metric):
    """``0`` between the same value (compared as records are), ``1`` otherwise."""

    def distance(self, a, b) -> int:
        return 0 if record_key(a) == record_key(b) else 1  # label: discrete


def change_one_distance() -> ChangeOneDistance:
    """The change-one distance between datasets of equal size."""
    return ChangeOneDistance()


def hamming_distance() -> HammingDistance:
    """The Hamming distance between datasets of equal length."""
    return HammingDistance()


def discrete_distance() -> DiscreteDistance:
    """The discrete distance: 0 between the same value, 1 between different values."""
    return DiscreteDistance()


# proof: end change-metrics
