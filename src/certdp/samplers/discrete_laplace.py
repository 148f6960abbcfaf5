"""Exact discrete Laplace noise on the integers with a rational scale.

Guarantee (discrete_laplace.tex): for a rational ``scale = t / s > 0``,
``discrete_laplace_sampler(scale)(source)`` returns ``z`` with probability
exactly ``(e^{1/scale} - 1) / (e^{1/scale} + 1) * e^{-|z| / scale}``; for
``scale = 0`` it returns 0.  Algorithm 2 of Canonne, Kamath and Steinke (2020).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from certdp.core.errors import FailedFunctionError, shown

from ._arguments import exact_inputs, exact_rational
from .bernoulli_exp import bernoulli_exp_at_most_one
from .geometric import geometric_batch_by_inversion as geometric_batch
from .geometric import geometric_exp_sampler, threshold_table
from .uniform import EntropySource, entropy_source

__all__ = ["discrete_laplace_sampler", "discrete_laplace_batch_sampler", "sample_discrete_laplace"]


# proof: begin discrete-laplace
def discrete_laplace_sampler(scale: Fraction) -> Callable[[EntropySource], int]:
    """A sampler of DLap(0, scale), for an exact rational ``scale >= 0``."""
    if scale == 0:  # label: zero-scale

        def no_noise(source: EntropySource) -> int:
            return 0

        return no_noise

    t, s = scale.numerator, scale.denominator  # label: scale-parts
    table = threshold_table(s, t)  # label: direct-table
    if table is not None:
        # |Z| is geometric with ratio exp(-1 / scale): drawn directly by inversion
        magnitude_sampler = geometric_exp_sampler(s, t)  # label: direct-magnitude

        def sample_direct(source: EntropySource) -> int:
            while True:
                magnitude = magnitude_sampler(source)  # label: magnitude-direct
                negative = source.bit()  # label: sign-direct
                if negative and magnitude == 0:  # label: reject-direct
                    continue
                return -magnitude if negative else magnitude

        return sample_direct

    unit_geometric = geometric_exp_sampler(1, 1)  # label: unit-geometric

    def sample_split(source: EntropySource) -> int:
        while True:
            remainder = source.below(t)  # label: remainder
            if not bernoulli_exp_at_most_one(source, remainder, t):  # label: accept-remainder
                continue
            quotient = unit_geometric(source)  # label: quotient
            magnitude = (remainder + t * quotient) // s  # label: magnitude
            negative = source.bit()  # label: sign
            if negative and magnitude == 0:  # label: reject-negative-zero
                continue
            return -magnitude if negative else magnitude  # label: result

    return sample_split


# proof: end discrete-laplace


# proof: begin discrete-laplace-batch
def discrete_laplace_batch_sampler(scale: Fraction) -> Callable[[EntropySource, int], np.ndarray]:
    """A sampler of ``count`` independent draws of DLap(0, scale), as a numpy array (``int64``
    when every draw fits, else ``object``); vectorised when the direct algorithm applies."""
    t, s = scale.numerator, scale.denominator
    table = threshold_table(s, t) if scale != 0 else None  # label: batch-table
    if table is None:
        single = discrete_laplace_sampler(scale)

        def one_by_one(source: EntropySource, count: int) -> np.ndarray:
            draws = [single(source) for _ in range(count)]  # label: one-by-one
            return np.array(draws, dtype=np.int64 if scale == 0 else object)

        return one_by_one

    def vectorised(source: EntropySource, count: int) -> np.ndarray:
        draws = np.zeros(count, dtype=np.int64)
        pending = np.arange(count)
        while pending.size:  # every pending draw restarts with fresh randomness
            size = pending.size
            magnitudes = geometric_batch(source, s, t, table, size)  # label: magnitudes
            negative = source.bit_array(size).astype(bool)  # label: batch-signs
            accepted = ~(negative & (magnitudes == 0))  # label: batch-accept
            if magnitudes.dtype == object and draws.dtype != object:
                draws = draws.astype(object)
            signed = np.where(negative, -magnitudes, magnitudes)
            draws[pending[accepted]] = signed[accepted]  # label: batch-store
            pending = pending[~accepted]
        return draws

    return vectorised


# proof: end discrete-laplace-batch


@exact_inputs
def sample_discrete_laplace(scale) -> int:
    """One draw of the discrete Laplace distribution DLap(0, scale), rational ``scale >= 0``."""
    scale = exact_rational(scale, "scale")
    if scale < 0:
        raise FailedFunctionError(f"must be non-negative, got {shown(scale)}", parameter="scale")
    return discrete_laplace_sampler(scale)(entropy_source())
