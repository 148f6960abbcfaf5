"""Goodness-of-fit helpers for the sampler tests: chi-square and KS against an exact pmf.

Every test uses significance 1e-6, so a correct sampler fails a given test with
probability at most 1e-6 (the suite does not flake), while a sampler whose
distribution is visibly off fails it almost surely at the sample sizes used.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

SIGNIFICANCE = 1e-6


def chi_square_pvalue(samples, pmf, support) -> float:
    """Chi-square p-value of integer ``samples`` against ``pmf`` on ``support`` (a range
    covering the bulk); the mass outside is pooled into two tail bins, and bins with
    small expected counts are merged with their neighbours."""
    samples = np.asarray(samples)
    n = len(samples)
    low, high = support[0], support[-1]
    inner = [pmf(z) for z in support]
    tail_low = _tail(pmf, low, -1)
    observed, expected = [int(np.sum(samples < low))], [tail_low]
    for z, p in zip(support, inner):
        observed.append(int(np.sum(samples == z)))
        expected.append(p)
    observed.append(int(np.sum(samples > high)))
    expected.append(max(0.0, 1.0 - tail_low - sum(inner)))
    observed, expected = _merge(observed, [p * n for p in expected])
    return stats.chisquare(observed, np.asarray(expected) * (sum(observed) / sum(expected))).pvalue


def _tail(pmf, start, step) -> float:
    total, z = 0.0, start + step
    while True:
        p = pmf(z)
        total += p
        if p < 1e-18:
            return total
        z += step


def _merge(observed, expected, minimum=5.0):
    merged_o, merged_e, acc_o, acc_e = [], [], 0, 0.0
    for o, e in zip(observed, expected):
        acc_o, acc_e = acc_o + o, acc_e + e
        if acc_e >= minimum:
            merged_o.append(acc_o)
            merged_e.append(acc_e)
            acc_o, acc_e = 0, 0.0
    if acc_e > 0 or acc_o > 0:
        if merged_e:
            merged_o[-1] += acc_o
            merged_e[-1] += acc_e
        else:
            merged_o, merged_e = [acc_o], [acc_e]
    return merged_o, merged_e


def ks_pvalue(samples, cdf) -> float:
    """KS p-value of integer ``samples`` against the cdf of an integer-valued law.

    The statistic is ``max_z |F_n(z) - F(z)|`` over the integers, where both step
    functions jump; under the null hypothesis it is stochastically smaller than in
    the continuous case, so the continuous (Kolmogorov) p-value is conservative.
    """
    samples = np.sort(np.asarray(samples))
    n = len(samples)
    points = np.unique(samples)
    empirical = np.searchsorted(samples, points, side="right") / n
    below = np.searchsorted(samples, points, side="left") / n  # F_n just before each jump
    theoretical = np.array([cdf(int(z)) for z in points])
    theoretical_before = np.array([cdf(int(z) - 1) for z in points])
    statistic = max(
        np.max(np.abs(empirical - theoretical)), np.max(np.abs(below - theoretical_before))
    )
    return float(stats.kstwo.sf(statistic, n))


def discrete_laplace_pmf(scale):
    r = math.exp(-1.0 / scale)
    return lambda z: (1 - r) / (1 + r) * r ** abs(z)


def discrete_laplace_cdf(scale):
    r = math.exp(-1.0 / scale)
    return lambda z: 1 - r ** (z + 1) / (1 + r) if z >= 0 else r ** (-z) / (1 + r)


def geometric_pmf(x):
    return lambda v: (1 - math.exp(-x)) * math.exp(-x * v) if v >= 0 else 0.0


def geometric_cdf(x):
    return lambda v: 1 - math.exp(-x * (v + 1)) if v >= 0 else 0.0


class no_shrinking:
    """Within the block, hypothesis reports the first counterexample it finds without
    shrinking it (shrinking through sympy is slow, and a refutation needs no minimal one)."""

    def __enter__(self):
        from hypothesis import Phase, settings

        self._saved = settings.default
        settings.register_profile(
            "laplace-refutation",
            parent=settings.default,
            phases=[Phase.explicit, Phase.reuse, Phase.generate],
        )
        settings.load_profile("laplace-refutation")
        return self

    def __exit__(self, *exc):
        from hypothesis import settings

        settings.register_profile("laplace-restore", parent=self._saved)
        settings.load_profile("laplace-restore")
        return False
