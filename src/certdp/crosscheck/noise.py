"""The target's noise against its exact distribution.

A vector measurement of the target is invoked on zeros, so its ``n`` outputs are ``n`` draws
of its noise: ``h * Z`` with ``h = 2**k`` (``h = 1`` for integers) and ``Z`` discrete Laplace
(``P(z) ~ exp(-|z| h / scale)``) or discrete Gaussian (``P(z) ~ exp(-(z h)**2 / (2 scale**2))``).
Three tests at ``alpha = 1e-6`` each:

* chi-square on cells of the exact pmf (integers: single values, tails pooled; floats: cells
  of width ``scale / 4`` whose probabilities come from the exact lattice CDF);
* Kolmogorov--Smirnov against the exact CDF (conservative for lattice distributions);
* a scale test: a z-test on the sufficient statistic (``mean |X|``, resp. ``mean X**2``) with
  its exact mean and variance.

Without ``--quick`` the sample size is the one at which the scale test rejects a 1 % relative
bias of the scale with power 0.9 (from the exact moments); chi-square and KS, being omnibus
tests, are less powerful against that alternative.  For a float lattice with ``h`` below
``2**-30`` times the scale, the CDF and moments are those of the continuous law: they differ
from the lattice's by at most the lattice offset ``h / scale`` (plus, for the Gaussian, the
Poisson-summation term ``exp(-2 pi**2 scale**2 / h**2)``), and the outputs' final rounding to the float type moves the CDF by less
than ``2**-23`` relative; both are far below what ``n`` draws can resolve.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import mpmath
import numpy as np

__all__ = ["ALPHA", "NoiseResult", "check_noise", "sample_size", "moments", "QUICK_SAMPLES"]

ALPHA = 1e-6
POWER = 0.9
BIAS = 0.01
QUICK_SAMPLES = 20_000
#: A lattice this fine (relative to the scale) is treated as continuous for the Gaussian.
CONTINUOUS_BELOW = 2.0**-30


@dataclass
class NoiseResult:
    samples: int
    seconds: float
    p_values: dict
    rejected: list


def _z(probability: float) -> float:
    return float(mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(probability) - 1))


def moments(kind: str, scale: float, h: float) -> tuple[float, float]:
    """Exact mean and variance of the scale statistic (``|X|``, resp. ``X**2``), ``X = h Z``."""
    if kind == "bernoulli":  # a 0/1 draw that is 1 with probability ``scale``: |X| = X^2 = X
        return float(scale), float(scale * (1 - scale))
    with mpmath.workdps(50):
        s, h = mpmath.mpf(scale), mpmath.mpf(h)
        if kind == "laplace" and h / s < CONTINUOUS_BELOW:
            return float(s), float(s**2)
        if kind == "laplace":
            q = mpmath.exp(-h / s)
            first = 2 * q / ((1 + q) * (1 - q)) * h  # E|X|
            second = 2 * q / (1 - q) ** 2 * h**2  # E X^2 = E |X|^2
            return float(first), float(second - first**2)
        if h / s < CONTINUOUS_BELOW:
            return float(s**2), float(2 * s**4)
        limit = int(40 * s / h) + 2
        weights = [mpmath.exp(-((z * h) ** 2) / (2 * s**2)) for z in range(-limit, limit + 1)]
        total = mpmath.fsum(weights)
        values = [(z * h) ** 2 for z in range(-limit, limit + 1)]
        second = mpmath.fsum(w * v for w, v in zip(weights, values)) / total
        fourth = mpmath.fsum(w * v**2 for w, v in zip(weights, values)) / total
        return float(second), float(fourth - second**2)


def sample_size(kind: str, scale: float, h: float) -> int:
    """Draws at which the scale test rejects a 1 % relative bias of the scale with power 0.9
    at alpha (two-sided), from the exact moments at ``scale`` and ``1.01 scale``."""
    mean, variance = moments(kind, scale, h)
    biased, _ = moments(kind, scale * (1 + BIAS), h)
    z = _z(1 - ALPHA / 2) + _z(POWER)
    return math.ceil((z * math.sqrt(variance) / (biased - mean)) ** 2)


def _cdf(kind: str, scale: float, h: float):
    """The exact CDF of ``h Z`` (a vectorised float64 function; see the module note)."""
    if kind == "laplace" and h / scale < CONTINUOUS_BELOW:

        def cdf(t):
            t = np.asarray(t, dtype=np.float64)
            return np.where(
                t >= 0, 1 - 0.5 * np.exp(-t / scale), 0.5 * np.exp(np.minimum(t, 0) / scale)
            )

        return cdf
    if kind == "laplace":
        q = math.exp(-h / scale)

        def cdf(t):
            t = np.asarray(t, dtype=np.float64)
            m = np.floor(t / h)
            upper = 1 - np.exp(-(m + 1) * h / scale) / (1 + q)
            lower = np.exp(m * h / scale) / (1 + q)
            return np.where(m >= 0, upper, lower)

        return cdf
    if h / scale < CONTINUOUS_BELOW:

        def cdf(t):
            t = np.asarray(t, dtype=np.float64)
            return 0.5 * (1 + np.vectorize(math.erf)(t / (scale * math.sqrt(2))))

        return cdf
    limit = int(40 * scale / h) + 2
    support = np.arange(-limit, limit + 1)
    weights = np.array(
        [
            float(mpmath.exp(-((mpmath.mpf(int(z)) * h) ** 2) / (2 * mpmath.mpf(scale) ** 2)))
            for z in support
        ]
    )
    cumulative = np.cumsum(weights) / weights.sum()

    def cdf(t):
        index = np.floor(np.asarray(t, dtype=np.float64) / h).astype(np.int64) + limit
        index = np.clip(index, -1, len(cumulative) - 1)
        return np.where(index < 0, 0.0, cumulative[np.maximum(index, 0)])

    return cdf


def _chi_square(values: np.ndarray, cdf, scale: float, h: float, integer: bool) -> float:
    n = len(values)
    if integer:
        width = max(1.0, h)
        half = max(8, int(4 * scale / width))
        edges = (np.arange(-half, half + 1) + 0.5) * width
    else:
        edges = np.arange(-24, 25) * (scale / 4)
    probabilities = np.diff(np.concatenate([[0.0], cdf(edges), [1.0]]))
    counts = np.bincount(np.searchsorted(edges, values, side="left"), minlength=len(edges) + 1)
    # pool cells with fewer than 5 expected draws into their neighbours
    pooled_p, pooled_c, acc_p, acc_c = [], [], 0.0, 0
    for p, c in zip(probabilities, counts):
        acc_p, acc_c = acc_p + p, acc_c + c
        if acc_p * n >= 5:
            pooled_p.append(acc_p)
            pooled_c.append(acc_c)
            acc_p, acc_c = 0.0, 0
    if acc_p and pooled_p:
        pooled_p[-1] += acc_p
        pooled_c[-1] += acc_c
    expected = np.array(pooled_p) * n
    statistic = float(np.sum((np.array(pooled_c) - expected) ** 2 / expected))
    df = len(pooled_p) - 1
    if df < 1:
        return 1.0
    return float(mpmath.gammainc(df / 2, statistic / 2, mpmath.inf, regularized=True))


def _ks(values: np.ndarray, cdf) -> float:
    n = len(values)
    ordered = np.sort(values)
    above = cdf(ordered)
    # the left limits: the CDF just below each value (the same for continuous laws)
    below = cdf(np.nextafter(ordered, -np.inf))
    ranks = np.arange(1, n + 1)
    statistic = max(float(np.max(ranks / n - above)), float(np.max(below - (ranks - 1) / n)))
    statistic = max(statistic - 1e-12, 0.0)  # the float64 CDF's own error, in the target's favour
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * statistic
    if lam < 0.2:
        return 1.0
    return float(
        min(1.0, 2 * sum((-1) ** (j - 1) * math.exp(-2 * j * j * lam * lam) for j in range(1, 101)))
    )


def _scale_test(values: np.ndarray, kind: str, scale: float, h: float) -> float:
    mean, variance = moments(kind, scale, h)
    statistic = np.abs(values) if kind == "laplace" else values.astype(np.float64) ** 2
    z = (float(np.mean(statistic)) - mean) / math.sqrt(variance / len(values))
    return float(mpmath.erfc(abs(z) / mpmath.sqrt(2)))


def check_noise(sampler, noise, n: int) -> NoiseResult:
    """Draw ``n`` noise values with ``sampler`` (invoked on zeros) and run the three tests."""
    integer = noise.k == 0 and noise.T.startswith(("i", "u"))
    h = 1.0 if integer else 2.0**noise.k
    # unsigned outputs cannot go below zero: centre them in the type's range
    centre = 2 ** (int(noise.T[1:]) - 1) if noise.T.startswith("u") else 0
    zero = centre if integer else 0.0
    start = time.perf_counter()
    values = np.asarray([value - centre for value in sampler([zero] * n)], dtype=np.float64)
    if noise.kind == "bernoulli":  # randomized response: only the frequency test applies
        p_values = {"scale": _scale_test(values, noise.kind, noise.scale, h)}
        rejected = [name for name, p in p_values.items() if p < ALPHA]
        return NoiseResult(n, time.perf_counter() - start, p_values, rejected)
    cdf = _cdf(noise.kind, noise.scale, h)
    p_values = {
        "chi-square": _chi_square(values, cdf, noise.scale, h, integer),
        "ks": _ks(values, cdf),
        "scale": _scale_test(values, noise.kind, noise.scale, h),
    }
    rejected = [name for name, p in p_values.items() if p < ALPHA]
    return NoiseResult(n, time.perf_counter() - start, p_values, rejected)
