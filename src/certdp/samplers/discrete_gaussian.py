"""Exact discrete Gaussian noise on the integers with a rational scale.

Guarantee (discrete_gaussian.tex): for a rational ``scale = sigma > 0``,
``discrete_gaussian_sampler(scale)(source)`` returns ``z`` with probability exactly
``exp(-z^2 / (2 sigma^2)) / sum_{y in Z} exp(-y^2 / (2 sigma^2))``; for ``scale = 0`` it
returns 0.  Algorithm 3 of Canonne, Kamath and Steinke (2020): discrete Laplace proposals
of scale ``floor(sigma) + 1``, each kept with an exact Bernoulli(exp(-gamma)) trial.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from certdp.core.errors import FailedFunctionError, shown

from ._arguments import exact_rational
from .bernoulli_exp import bernoulli_exp_ratio
from .discrete_gaussian_split import split_gaussian
from .discrete_laplace import discrete_laplace_sampler
from .discrete_laplace_z2k_batch import discrete_laplace_large_batch_sampler, split_to_integers
from .distinct import sorted_distinct
from .exp_digits import exp_neg_digits
from .uniform import EntropySource, entropy_source

__all__ = [
    "discrete_gaussian_sampler",
    "discrete_gaussian_batch_sampler",
    "sample_discrete_gaussian",
]

# proof: begin discrete-gaussian
#: Proposal scales t from which the batch samplers use split_gaussian (from t = 93 on,
#: threshold_table(1, t) does not exist; the choice affects only speed).
SPLIT_FROM = 93  # label: split-from
#: Digits of W and of the thresholds compared at once by the batch acceptance test.
WORD = 64  # label: word
WORD_MASK = (1 << WORD) - 1  # label: word-mask


def acceptance_exponent(scale: Fraction) -> tuple[int, int, Callable[[int], int]]:
    """``(t, d, n)`` with ``t = floor(scale) + 1`` and ``n(y) / d`` equal to
    ``(|y| - scale^2 / t)^2 / (2 scale^2)`` exactly, for ``scale > 0``."""
    t = scale.numerator // scale.denominator + 1  # label: proposal-scale
    variance = scale * scale
    p, q = variance.numerator, variance.denominator  # scale^2 = p / q  # label: variance
    # (|y| - p / (q t))^2 / (2 p / q) == (|y| q t - p)^2 / (2 p q t^2)
    denominator = 2 * p * q * t * t  # label: exponent-denominator

    def numerator(y: int) -> int:
        return (abs(y) * q * t - p) ** 2  # label: exponent-numerator

    return t, denominator, numerator


def discrete_gaussian_sampler(scale: Fraction) -> Callable[[EntropySource], int]:
    """A sampler of the discrete Gaussian N_Z(0, scale^2), for an exact rational
    ``scale >= 0``."""
    if scale == 0:  # label: zero-scale

        def no_noise(source: EntropySource) -> int:
            return 0

        return no_noise

    t, denominator, numerator = acceptance_exponent(scale)
    proposal = discrete_laplace_sampler(Fraction(t))  # label: proposal

    def sample(source: EntropySource) -> int:
        while True:
            y = proposal(source)  # label: draw-proposal
            if bernoulli_exp_ratio(source, numerator(y), denominator):  # label: accept
                return y  # label: result

    return sample


# proof: end discrete-gaussian


# proof: begin discrete-gaussian-batch
def bernoulli_exp_refine(source: EntropySource, n: int, d: int, prefix: int) -> bool:
    """Finish the comparison ``W < exp(-n/d)`` when the first 64 digits ``prefix`` of the
    uniform ``W`` equal the first 64 digits of ``exp(-n/d)``."""
    digits = WORD
    while True:
        prefix = (prefix << WORD) | source.bits(WORD)  # label: refine-draw
        digits += WORD
        threshold = exp_neg_digits(n, d, digits)  # label: refine-threshold
        if prefix != threshold:
            return prefix < threshold  # label: refine-decided


def discrete_gaussian_batch_sampler(scale: Fraction) -> Callable[[EntropySource, int], np.ndarray]:
    """A sampler of ``count`` independent draws of N_Z(0, scale^2), as a numpy array
    (``int64`` when every draw fits, else ``object``); vectorised: by ``split_gaussian`` for
    proposal scales from ``SPLIT_FROM`` on (Python integers), else on the table's proposals."""
    if scale == 0:

        def zeros(source: EntropySource, count: int) -> np.ndarray:
            return np.zeros(count, dtype=np.int64)  # label: batch-zero

        return zeros
    t, denominator, numerator = acceptance_exponent(scale)
    if t >= SPLIT_FROM:  # label: batch-split-case
        j, low, draw = split_gaussian(scale, (t, denominator, numerator))  # label: batch-split

        def split_batch(source: EntropySource, count: int) -> np.ndarray:
            draws = draw(source, count)  # label: batch-split-draws
            return split_to_integers(source, j, low, draws)  # label: batch-split-integers

        return split_batch
    proposals = discrete_laplace_large_batch_sampler(Fraction(t))  # label: batch-proposals
    thresholds: dict[int, int] = {}  # |y| -> floor(2^64 exp(-n(y) / d))

    def threshold(magnitude: int) -> int:
        if magnitude not in thresholds:
            n = numerator(magnitude)
            # exp(-0) = 1: every W < 1 is accepted, so 2^64 (larger than any prefix) decides
            thresholds[magnitude] = exp_neg_digits(n, denominator, WORD) if n else 1 << WORD
        return thresholds[magnitude]  # label: batch-threshold

    def batch(source: EntropySource, count: int) -> np.ndarray:
        draws = np.zeros(count, dtype=np.int64)
        pending = np.arange(count)
        while pending.size:  # every pending draw restarts with a fresh proposal
            size = pending.size
            ys = proposals(source, size)  # label: batch-draw
            if ys.dtype == object:
                draws = draws.astype(object)
                ys_list = [int(y) for y in ys]
                accepted = np.array(
                    [bernoulli_exp_ratio(source, numerator(y), denominator) for y in ys_list],
                    dtype=bool,
                )  # label: batch-accept-exact
            else:
                magnitudes = np.abs(ys)
                unique, inverse = sorted_distinct(magnitudes, inverse=True)  # label: batch-distinct
                limits = [threshold(int(m)) for m in unique]
                always = np.array([limit >> WORD for limit in limits], dtype=bool)[inverse]
                bounds = np.array(
                    [limit & (WORD_MASK) for limit in limits], dtype=np.uint64
                )  # label: batch-bounds
                bounds = bounds[inverse]
                words = source.words(size)  # label: batch-words
                accepted = always | (words < bounds)  # label: batch-compare
                for i in np.flatnonzero(~always & (words == bounds)):  # undecided
                    accepted[i] = bernoulli_exp_refine(
                        source, numerator(int(magnitudes[i])), denominator, int(words[i])
                    )  # label: batch-refine
            draws[pending[accepted]] = ys[accepted]  # label: batch-store
            pending = pending[~accepted]
        return draws

    return batch


# proof: end discrete-gaussian-batch


def sample_discrete_gaussian(scale) -> int:
    """One draw of the discrete Gaussian N_Z(0, scale^2), for a rational ``scale >= 0``."""
    scale = exact_rational(scale, "scale")
    if scale < 0:
        raise FailedFunctionError(f"must be non-negative, got {shown(scale)}", parameter="scale")
    return discrete_gaussian_sampler(scale)(entropy_source())
