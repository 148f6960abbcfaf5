"""Exact noisy top-k selection: ``k`` peeled rounds of permute-and-flip or of the exponential
mechanism, the two algorithms OpenDP 0.16's ``make_noisy_top_k`` runs.

Guarantee (noisy_top_k.tex): with ``y_i = score_i`` (``-score_i`` when ``negate``) and, in each
round, ``g_i = (max y - y_i) / scale`` over the indices not chosen yet,
``sample_noisy_top_k(scores, scale, k, noise)`` returns ``k`` distinct indices, drawn one round
after the other:

* ``noise="exponential"``: each round is permute-and-flip (McKenna and Sheldon 2020), which
  returns ``i`` with the probability that ``y_i / scale + Z_i`` is the largest for independent
  ``Z_i ~ Exp(1)`` (report-noisy-max with exponential noise);
* ``noise="gumbel"``: each round is the exponential mechanism, ``Pr[i] ∝ exp(y_i / scale)``; the
  ``k`` rounds together are distributed exactly as the indices of the ``k`` largest
  ``y_i / scale + G_i``, ``G_i ~ Gumbel(0, 1)``, in decreasing order.

Every probability is exact: the only random draws are uniform integers and exact Bernoulli
``exp(-g)`` trials; no floating-point number enters.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from certdp.core.errors import FailedFunctionError, shown

from ._arguments import exact_inputs, exact_rational
from .bernoulli_exp import bernoulli_exp_ratio
from .uniform import EntropySource, entropy_source

__all__ = [
    "permute_and_flip_round",
    "exponential_mechanism_round",
    "peeled_selection",
    "sample_noisy_top_k",
]

#: The noise names of the public sampler and whether its rounds draw with replacement.
NOISES = {"exponential": False, "gumbel": True}


# proof: begin noisy-top-k
def permute_and_flip_round(
    source: EntropySource, values: list[Fraction], alive: list[int], scale: Fraction
) -> int:
    """One round of permute-and-flip over the indices ``alive``: visit them in a uniformly
    random order and return the first ``i`` whose ``exp(-(max - values[i]) / scale)`` trial
    succeeds."""
    top = max(values[i] for i in alive)  # label: pf-top
    order = list(alive)
    size = len(order)
    for left in range(size):  # label: pf-loop
        right = left + source.below(size - left)  # label: pf-draw
        order[left], order[right] = order[right], order[left]  # label: pf-swap
        candidate = order[left]
        gap = (top - values[candidate]) / scale  # label: pf-gap
        if bernoulli_exp_ratio(source, gap.numerator, gap.denominator):  # label: pf-flip
            return candidate
    # the index of the maximum has gap 0, its trial succeeds, so the loop has returned
    raise AssertionError("unreachable: the maximum is always accepted")  # label: pf-unreachable


def exponential_mechanism_round(
    source: EntropySource, values: list[Fraction], alive: list[int], scale: Fraction
) -> int:
    """One round of the exponential mechanism over the indices ``alive``, by rejection: propose a
    uniform ``i`` and accept it with probability ``exp(-(max - values[i]) / scale)``."""
    top = max(values[i] for i in alive)  # label: em-top
    size = len(alive)
    while True:
        candidate = alive[source.below(size)]  # label: em-propose
        gap = (top - values[candidate]) / scale  # label: em-gap
        if bernoulli_exp_ratio(source, gap.numerator, gap.denominator):  # label: em-accept
            return candidate


def peeled_selection(
    source: EntropySource, values: list[Fraction], scale: Fraction, k: int, replacement: bool
) -> list[int]:
    """``k`` rounds, each choosing one of the indices not chosen before (``replacement``: the
    exponential mechanism, else permute-and-flip); the indices in the order chosen."""
    alive = list(range(len(values)))  # label: alive
    step = exponential_mechanism_round if replacement else permute_and_flip_round  # label: step
    chosen = []
    for _ in range(k):  # label: rounds
        index = step(source, values, alive, scale)  # label: round
        alive.remove(index)  # label: peel
        chosen.append(index)
    return chosen


# proof: end noisy-top-k


@exact_inputs
def sample_noisy_top_k(scores, scale, k, noise, negate=False) -> list[int]:
    """``k`` indices of ``scores`` chosen by ``k`` peeled rounds of permute-and-flip
    (``noise="exponential"``) or of the exponential mechanism (``noise="gumbel"``, equal in
    distribution to the top ``k`` under Gumbel noise), with exact probabilities."""
    if type(noise) is not str or noise not in NOISES:
        raise FailedFunctionError(
            f"must be 'exponential' or 'gumbel', got {shown(noise)}", parameter="noise"
        )
    if type(negate) is not bool:
        raise FailedFunctionError(f"must be True or False, got {shown(negate)}", parameter="negate")
    if type(scores) is np.ndarray:
        if scores.ndim != 1:
            raise FailedFunctionError(
                f"must be one-dimensional, got {scores.ndim} dimensions", parameter="scores"
            )
        scores = scores.tolist()
    if type(scores) not in (list, tuple):
        raise FailedFunctionError(
            f"must be a list, tuple or 1-d array, got {shown(scores)}", parameter="scores"
        )
    if not scores:
        raise FailedFunctionError("must not be empty", parameter="scores")
    sign = -1 if negate else 1
    values = [sign * exact_rational(score, "scores") for score in scores]
    scale = exact_rational(scale, "scale")
    if scale <= 0:
        raise FailedFunctionError(f"must be positive, got {shown(scale)}", parameter="scale")
    if type(k) is not int:
        raise FailedFunctionError(f"must be an integer, got {shown(k)}", parameter="k")
    if not 1 <= k <= len(values):
        raise FailedFunctionError(
            f"must lie in [1, {len(values)}] (the number of scores), got {k}", parameter="k"
        )
    return peeled_selection(entropy_source(), values, scale, k, NOISES[noise])
