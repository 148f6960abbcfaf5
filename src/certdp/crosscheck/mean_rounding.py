"""The mean-rounding check of sums of squared deviations and variances (OpenDP #2923).

A sized sum of squared deviations subtracts the empirical mean ``m = fl(s / n)`` from every
record.  Changing one record can flip the rounding direction of that division and so move all
``n`` deviations at once; a map that bounds the mean's error by the summation error alone misses
this.  For a point with ``search == "mean-rounding"`` and ``records = (lower, upper, size, T)``
the check runs the target's own function (in float, exactly as the target runs it) on
``x = (v, ..., v)`` and ``x' = (w, v, ..., v)`` (one record replaced: symmetric distance 2)
for ``v, w`` on a grid of values of ``T`` in the bounds (the bounds, their first eight
neighbours inside, and eight evenly spaced values), and reports a pair whose outputs are
further apart than the target's ``map(2)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["MeanRoundingPair", "grid_values", "check_mean_rounding", "mean_rounding_script"]


@dataclass
class MeanRoundingPair:
    x: list
    x_prime: list
    claimed: object
    actual: Fraction


def grid_values(lower: float, upper: float, T: str) -> list[float]:
    """Values of ``T`` in ``[lower, upper]``: the bounds, eight steps inward from each, and
    eight evenly spaced ones (rounded into ``T``)."""
    dtype = np.float32 if T == "f32" else np.float64
    low, high = dtype(lower), dtype(upper)
    found = {float(low), float(high)}
    up, down = low, high
    for _ in range(8):
        up, down = np.nextafter(up, high), np.nextafter(down, low)
        found |= {float(up), float(down)}
    for j in range(1, 8):
        value = float(dtype(lower + (upper - lower) * j / 8))
        if lower <= value <= upper:
            found.add(value)
    return sorted(found)


def check_mean_rounding(built, lower: float, upper: float, size: int, T: str):
    """The first pair ``(x, x')`` at symmetric distance 2 whose outputs differ by more than
    ``built.map(2)`` (compared exactly), or ``None``."""
    try:
        claimed = built.map(2)
    except Exception:
        return None  # the target refuses this distance: it claims nothing
    values = grid_values(lower, upper, T)
    for v in values:
        x = [v] * size
        try:
            fx = built(x)
        except Exception:
            continue
        for w in values:
            if w == v:
                continue
            x_prime = [w] + [v] * (size - 1)
            try:
                fy = built(x_prime)
            except Exception:
                continue
            actual = abs(Fraction(float(fx)) - Fraction(float(fy)))
            if actual > Fraction(float(claimed)):
                return MeanRoundingPair(x, x_prime, claimed, actual)
    return None


def mean_rounding_script(target: str, code: str, found: MeanRoundingPair) -> str:
    """A script in the target's API that rebuilds the pair and exits 1 when it exceeds the
    target's own map."""
    v, w, n = found.x[0], found.x_prime[0], len(found.x)
    return (
        "import sys\nfrom fractions import Fraction\n\n"
        f"import {target} as dp\n\n"
        'dp.enable_features("contrib")\n'
        f"built = {code}\n"
        f"x = [{v!r}] * {n}\n"
        f"x_prime = [{w!r}] + [{v!r}] * {n - 1}  # one record replaced: symmetric distance 2\n"
        "claimed = built.map(2)\n"
        "actual = abs(Fraction(built(x)) - Fraction(built(x_prime)))\n"
        'print(f"map(2) = {claimed!r}; |f(x) - f(x\')| = {float(actual)!r}")\n'
        "over = actual > Fraction(claimed)\n"
        'print("REPRODUCED: the outputs move further than the map allows" if over '
        'else "not reproduced")\n'
        "sys.exit(1 if over else 0)\n"
    )
