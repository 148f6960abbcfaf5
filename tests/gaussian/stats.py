"""The exact law of the discrete Gaussian, for the goodness-of-fit tests.

The normalising constant sum_y exp(-y^2 / (2 sigma^2)) is summed with mpmath at 50 digits
over |y| <= 40 sigma + 40 (the rest is below 1e-300 of it); the chi-square and KS helpers
(significance 1e-6) are those of the Laplace tests.
"""

from __future__ import annotations

import math
from functools import lru_cache

import mpmath

from tests.laplace.stats import SIGNIFICANCE, chi_square_pvalue, ks_pvalue

__all__ = [
    "SIGNIFICANCE",
    "chi_square_pvalue",
    "ks_pvalue",
    "discrete_gaussian_pmf",
    "discrete_gaussian_cdf",
]


@lru_cache(maxsize=None)
def _table(sigma: float) -> tuple[int, list[float], list[float]]:
    reach = int(40 * sigma) + 40
    with mpmath.workdps(50):
        s2 = 2 * mpmath.mpf(sigma) ** 2
        weights = [mpmath.exp(-(mpmath.mpf(y) ** 2) / s2) for y in range(-reach, reach + 1)]
        total = mpmath.fsum(weights)
        pmf = [float(w / total) for w in weights]
        cdf, running = [], mpmath.mpf(0)
        for w in weights:
            running += w
            cdf.append(float(running / total))
    return reach, pmf, cdf


def discrete_gaussian_pmf(sigma: float):
    reach, pmf, _ = _table(float(sigma))
    return lambda z: pmf[z + reach] if -reach <= z <= reach else 0.0


def discrete_gaussian_cdf(sigma: float):
    reach, _, cdf = _table(float(sigma))
    return lambda z: 0.0 if z < -reach else (1.0 if z >= reach else cdf[z + reach])


def support(sigma: float) -> range:
    width = int(math.ceil(6 * sigma)) + 2
    return range(-width, width + 1)
