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

Every probability is exact: the only random draws are uniform bits and integers and exact
Bernoulli ``exp(-g)`` trials (permute-and-flip decides the whole factors ``exp(-1)`` of all its
trials side by side, each from one uniform integer below ``8 * 12!``), and the exponential
mechanism compares a lazily refined uniform only against certified integer bounds of
``exp(-j)``; no floating-point number enters.
"""

from __future__ import annotations

import bisect
import math
from fractions import Fraction

import numpy as np

from certdp.core.conversion import exact_scalar
from certdp.core.errors import FailedFunctionError, shown
from certdp.core.exact_type import is_exact_fraction, type_is, types_are

from .bernoulli import bernoulli_ratio
from .bernoulli_exp import bernoulli_exp_ratio
from .distinct import sorted_distinct
from .uniform import EntropySource, entropy_source

__all__ = [
    "finish_unit_factors",
    "unit_factors_pass",
    "lazy_order_chunk",
    "first_accepted",
    "permute_and_flip_round",
    "near_whole_gaps",
    "exp_minus_one_bounds",
    "score_column",
    "whole_gap_layout",
    "draw_by_whole_gap",
    "exponential_mechanism_round",
    "peeled_selection",
    "exact_score",
    "sample_noisy_top_k",
]


# proof: begin noisy-top-k
#: One factor exp(-1) (the trial of bernoulli_exp.tex with x = 1: Bernoulli(1/2), Bernoulli(1/3),
#: ... until one fails; it passes when the failing one is 1/k with k odd) is decided by one
#: uniform integer below FACTOR_RANGE = 8 * 12! < 2**32: its trials up to 1/k all pass exactly
#: when the integer is below FACTOR_RANGE / k!.
FACTOR_RANGE = 8 * math.factorial(12)  # label: factor-range
#: FACTOR_RANGE / k! for k = 12, 11, ..., 2 (increasing).
FACTOR_STEPS = np.array([FACTOR_RANGE // math.factorial(k) for k in range(12, 1, -1)], np.uint32)


def finish_unit_factors(source: EntropySource, trial: int, left: int) -> bool:
    """The rest of ``left >= 1`` factors ``exp(-1)`` whose first has passed its trials
    ``1 / 2, ..., 1 / (trial - 1)``: ``True`` when that factor and the ``left - 1`` others pass."""
    while bernoulli_ratio(source, 1, trial):  # label: finish-trial
        trial += 1
    return trial & 1 == 1 and bernoulli_exp_ratio(source, left - 1, 1)  # label: finish-rest


def unit_factors_pass(source: EntropySource, counts: np.ndarray) -> np.ndarray:
    """A boolean array: entry ``p`` is ``True`` with probability ``exp(-counts[p])``,
    independently of the others and of every other draw: ``counts[p]`` factors ``exp(-1)``
    (``counts`` an int64 array of non-negative entries), run side by side over the entries."""
    passed = counts == 0  # no factor to pass  # label: uf-none
    positions = np.flatnonzero(counts)  # the entries still running  # label: uf-running
    left = counts[positions]  # their factors left, the current one included
    half, sixth = FACTOR_RANGE // 2, FACTOR_RANGE // 6
    while positions.size:  # label: uf-loop
        words = source.words((positions.size + 1) >> 1)  # label: uf-words
        drawn = words.view(np.uint32)[: positions.size]  # uniform in [0, 2**32)  # label: uf-draw
        # a draw from FACTOR_RANGE on is refused (the factor is drawn again); else the factor
        # ends at its trial 1/2 (lost), at 1/3 (won) or later
        lost = (drawn >= half) & (drawn < FACTOR_RANGE)  # label: uf-lost
        won = (drawn >= sixth) & (drawn < half)  # label: uf-won
        later = np.flatnonzero(drawn < sixth)  # label: uf-later
        if later.size:
            passes = np.searchsorted(FACTOR_STEPS, drawn[later], side="right")  # label: uf-rank
            # its trials up to 1/(12 - passes) pass and 1/(13 - passes) fails, if passes > 0
            won[later] = (passes & 1 == 0) & (passes > 0)  # label: uf-odd
            lost[later] = passes & 1 == 1
            for index in later[passes == 0].tolist():  # trials up to 1/12 pass  # label: uf-tail
                passed[positions[index]] = finish_unit_factors(source, 13, int(left[index]))
                lost[index] = True  # settled: no longer running
        left -= won  # label: uf-left
        done = won & (left == 0)  # label: uf-done
        passed[positions[done]] = True
        keep = ~(lost | done)  # refused, or won with factors left  # label: uf-keep
        positions, left = positions[keep], left[keep]
    return passed


#: A permute-and-flip trial runs at most PF_CUT + 1 factors exp(-1) of a gap side by side.
PF_CUT = 63  # label: pf-cut
#: The first chunk of the lazy random order has this many draws, each next one twice as many.
FIRST_CHUNK = 256  # label: first-chunk


def lazy_order_chunk(
    source: EntropySource, size: int, draws: int, visited: np.ndarray
) -> np.ndarray:
    """The next positions of a lazy uniformly random order of ``range(size)``: those that
    ``draws`` uniform draws from ``range(size)`` meet first (not marked in ``visited``, not met
    earlier in this call), in the order met; marks them in ``visited``."""
    limit = size * ((1 << 64) // size)  # a multiple of size, at most 2**64  # label: lo-limit
    words = source.words(draws)  # label: lo-words
    drawn = words[words <= np.uint64(limit - 1)] % np.uint64(size)  # label: lo-drawn
    _, first = sorted_distinct(drawn, first=True)  # each value's first draw  # label: lo-first
    met = drawn[np.sort(first)]  # the distinct values, in the order of their first draws
    fresh = met[~visited[met]]  # label: lo-fresh
    visited[fresh] = True
    return fresh.astype(np.int64)


def first_accepted(
    source: EntropySource, column: np.ndarray, top: int, scale: Fraction, positions, shuffle: bool
):
    """The index ``t`` into ``positions`` of the first position whose trial ``exp(-gap)``,
    ``gap = (top - column[p]) / scale``, succeeds, the positions visited in their order (in a
    uniformly random order when ``shuffle``); ``None`` when every trial fails."""
    numerator, denominator = scale.numerator, scale.denominator
    counts = np.full(len(positions), PF_CUT + 1, dtype=np.int64)  # label: fa-far
    near, whole = near_whole_gaps(column[positions], top, scale, PF_CUT)  # label: fa-near
    counts[near] = whole  # the whole gap, or PF_CUT + 1 when larger  # label: fa-counts
    # the first factors of every trial, side by side; visited: the trials they did not decide
    survivors = np.flatnonzero(unit_factors_pass(source, counts)).tolist()  # label: fa-survivors
    size = len(survivors)
    for left in range(size):  # label: fa-loop
        if shuffle:  # Fisher-Yates, stopped at the first success  # label: fa-shuffle
            right = left + source.below(size - left)  # label: fa-draw
            survivors[left], survivors[right] = survivors[right], survivors[left]
        index = survivors[left]
        gap = (top - int(column[positions[index]])) * denominator  # label: fa-gap
        rest = gap - int(counts[index]) * numerator  # the gap after the factors  # label: fa-rest
        if bernoulli_exp_ratio(source, rest, numerator):  # label: fa-flip
            return index
    return None


def permute_and_flip_round(source: EntropySource, column: np.ndarray, scale: Fraction) -> int:
    """One round of permute-and-flip over the scores ``column``: visit the positions in a
    uniformly random order and return the first ``p`` whose ``exp(-gap_p)`` trial succeeds,
    ``gap_p = (max - column[p]) / scale``; the order is drawn lazily, chunk by chunk, while it
    has reached fewer than an eighth of the positions, and the rest is visited at once."""
    top = int(column.max())  # label: pf-top
    size = len(column)
    visited = np.zeros(size, dtype=bool)
    reached, draws = 0, FIRST_CHUNK
    while reached < size >> 3:  # label: pf-chunks
        fresh = lazy_order_chunk(source, size, draws, visited)  # label: pf-chunk
        found = first_accepted(source, column, top, scale, fresh, False)  # label: pf-in-order
        if found is not None:
            return int(fresh[found])
        reached, draws = reached + len(fresh), 2 * draws
    rest = np.flatnonzero(~visited)  # increasing  # label: pf-rest
    found = first_accepted(source, column, top, scale, rest, True)  # label: pf-shuffled
    if found is None:  # every maximum is in the rest (a visited one is accepted)
        raise AssertionError("unreachable: the maximum is always accepted")  # label: pf-unreachable
    return int(rest[found])  # label: pf-return


def exp_minus_one_bounds(precision: int) -> tuple[int, int]:
    """Integers ``low <= 2**precision * exp(-1) <= high`` with ``high - low <= 2``."""
    # the partial sums of exp(-1) = sum (-1)^k / k! alternate around it (Leibniz)
    partial, term, k = Fraction(1), Fraction(1), 0  # label: series-start
    while term.denominator <= 1 << precision:  # label: series-loop
        k += 1
        term /= k
        previous, partial = partial, partial - term if k & 1 else partial + term
    low, high = sorted((previous, partial))  # label: series-bracket
    scaled_low, scaled_high = low * (1 << precision), high * (1 << precision)
    return math.floor(scaled_low), math.ceil(scaled_high)  # label: series-round


#: Scores in [-WIDE, WIDE] are laid out in an int64 column (differences of near-top scores fit).
WIDE = 1 << 62  # label: wide-bound


def score_column(values: list[int]) -> np.ndarray:
    """The scores ``values`` (Python ints) as a NumPy column with the same exact values: int64
    when all lie in ``[-2**62, 2**62]``, else of dtype object (the Python ints themselves)."""
    fits = -WIDE <= min(values) and max(values) <= WIDE  # label: column-fits
    return np.array(values, dtype=np.int64 if fits else object)  # label: column


def near_whole_gaps(column: np.ndarray, top: int, scale: Fraction, cut: int) -> tuple:
    """The positions ``p`` of ``column``, increasing, whose whole gap
    ``floor((top - column[p]) / scale)`` is at most ``cut``, and their whole gaps (arrays)."""
    numerator, denominator = scale.numerator, scale.denominator
    # the whole gap of v is at most cut exactly when v > floor(top - (cut + 1) * scale)
    threshold = (top * denominator - (cut + 1) * numerator) // denominator  # label: threshold
    # int64 arithmetic below is exact when every near gap times the denominator is below 2**63
    wide = column.dtype.kind == "O" or (cut + 1) * numerator + denominator >= 1 << 63
    if wide:  # label: wide
        column = column.astype(object)  # Python ints, exact at every width  # label: to-object
    else:
        threshold = max(threshold, -WIDE - 1)  # every value exceeds -2**62 - 1  # label: clip
    near = np.flatnonzero(column > threshold)  # increasing positions  # label: near
    whole = (top - column[near]) * denominator // numerator  # label: whole
    return near, whole


def whole_gap_layout(column: np.ndarray, top: int, scale: Fraction, precision: int) -> tuple:
    """The buckets of the positions ``p`` of ``column`` whose whole gap
    ``floor((top - column[p]) / scale)`` is at most ``cut = precision + bit length of
    len(column)``, in increasing gap order, with certified bounds of their weights
    ``count * exp(-gap)`` in units of ``2**-precision``, and a bound of the rest."""
    cut = precision + len(column).bit_length()  # label: cut
    near, whole = near_whole_gaps(column, top, scale, cut)  # label: layout-near
    keys_array, counts = sorted_distinct(whole, counts=True)  # label: unique
    order = near[np.argsort(whole, kind="stable")]  # by gap, then position  # label: order
    groups = np.split(order, np.cumsum(counts)[:-1])  # label: split
    keys = keys_array.tolist()  # label: keys
    members = {key: group.tolist() for key, group in zip(keys, groups)}  # label: group
    low_one, high_one = exp_minus_one_bounds(precision)
    low = high = 1 << precision  # bounds of 2**precision * exp(-j), j = 0  # label: power-start
    cumulative_low, cumulative_high = [], []
    total_low = total_high = 0
    j = 0
    for key in keys:
        while j < key:  # label: power-step
            low = (low * low_one) >> precision
            high = -((-high * high_one) >> precision)
            j += 1
        count = len(members[key])
        total_low += count * low  # label: cumulative
        total_high += count * high
        cumulative_low.append(total_low)
        cumulative_high.append(total_high)
    rest = len(column) - len(near)
    # each of the rest has exp(-whole) < 2**-(cut + 1) <= 2**-precision / 2**(cut + 1 - precision)
    rest_high = -((-rest) >> (cut + 1 - precision))  # label: rest
    return keys, members, cumulative_low, cumulative_high, total_low, total_high + rest_high


def draw_by_whole_gap(
    source: EntropySource, column: np.ndarray, top: int, scale: Fraction, layouts: dict
) -> int:
    """A position ``p`` of ``column`` with probability ``exp(-w_p) / sum_q exp(-w_q)``,
    ``w_p = floor((top - column[p]) / scale)``: inversion of a lazily refined uniform
    against certified bounds of the bucket weights, then a uniform member of the bucket."""
    precision = 64  # label: inv-start
    # the first `precision` bits of a uniform U in [0, 1)
    drawn = source.bits(precision)  # label: inv-draw
    while True:
        if precision not in layouts:
            layouts[precision] = whole_gap_layout(column, top, scale, precision)
        keys, members, cumulative_low, cumulative_high, total_low, total_high = layouts[precision]
        # U * total lies in [drawn * total_low, (drawn + 1) * total_high) / 2**(2 * precision)
        below = drawn * total_low  # label: inv-interval
        above = (drawn + 1) * total_high
        # the first bucket whose cumulative weight certainly exceeds U * total
        bucket = bisect.bisect_left(cumulative_low, -((-above) >> precision))  # label: inv-upper
        if bucket < len(keys) and (
            bucket == 0 or cumulative_high[bucket - 1] << precision <= below  # label: inv-lower
        ):
            chosen = members[keys[bucket]]
            return chosen[source.below(len(chosen))]  # label: inv-member
        drawn = (drawn << precision) | source.bits(precision)  # label: inv-refine
        precision *= 2


def exponential_mechanism_round(source: EntropySource, column: np.ndarray, scale: Fraction) -> int:
    """One round of the exponential mechanism over the scores ``column``: draw a position ``p``
    with probability proportional to ``exp(-floor(gap_p))`` and accept it with probability
    ``exp(-(gap_p - floor(gap_p)))``, ``gap_p = (max - column[p]) / scale``; the position."""
    top = int(column.max())  # label: em-top
    numerator, denominator = scale.numerator, scale.denominator
    cache: dict = {}  # the layouts of this round, by precision
    while True:
        position = draw_by_whole_gap(source, column, top, scale, cache)  # label: em-propose
        part = (top - int(column[position])) * denominator % numerator  # label: em-part
        if bernoulli_exp_ratio(source, part, numerator):  # label: em-accept
            return position


def peeled_selection(
    source: EntropySource, values: list[int], scale: Fraction, k: int, replacement: bool
) -> list[int]:
    """``k`` rounds, each choosing one of the indices not chosen before (``replacement``: the
    exponential mechanism, else permute-and-flip); the indices in the order chosen."""
    chosen = []
    column = score_column(values)  # label: column-once
    alive = np.arange(len(values))  # label: alive
    run_round = exponential_mechanism_round if replacement else permute_and_flip_round
    for _ in range(k):  # label: rounds
        position = run_round(source, column[alive], scale)  # label: round
        chosen.append(int(alive[position]))  # label: record
        alive = np.delete(alive, position)  # label: peel
    return chosen


def exact_score(value, parameter: str) -> tuple[int, int]:
    """``(numerator, denominator)``, Python ints with ``denominator >= 1``, of the exact value
    of a finite int, float or Fraction (NumPy integer and float16/32/64 scalars, and NumPy
    integer fields of a Fraction, included); a typed error naming ``parameter`` otherwise."""
    if isinstance(value, np.integer):  # label: np-int
        value = int(value)
    elif type_is(value, np.float16, np.float32, np.float64):
        value = float(value)  # every float16/32/64 value is a float exactly  # label: np-float
    if type(value) is int:  # label: int-exact
        return value, 1
    if type(value) is float:
        if not math.isfinite(value):  # label: finite
            raise FailedFunctionError(f"must be finite, got {shown(value)}", parameter=parameter)
        return value.as_integer_ratio()  # the exact value  # label: float-exact
    if type(value) is Fraction:
        # a Fraction keeps NumPy integer fields as given (their arithmetic would wrap around),
        # and one made without its constructor may hold any fields: rebuilt exactly, or refused
        exact = (
            value
            if is_exact_fraction(value)
            else exact_scalar(value, parameter, FailedFunctionError)
        )  # label: fraction-exact
        return exact.numerator, exact.denominator
    raise FailedFunctionError(
        f"must be an int, a finite float or a Fraction, got {shown(value)}", parameter=parameter
    )


#: The noise names of the public sampler and whether its rounds draw with replacement.
NOISES = {"exponential": False, "gumbel": True}  # label: noises


def sample_noisy_top_k(scores, scale, k, noise, negate=False) -> list[int]:
    """``k`` indices of ``scores`` chosen by ``k`` peeled rounds of permute-and-flip
    (``noise="exponential"``) or of the exponential mechanism (``noise="gumbel"``, equal in
    distribution to the top ``k`` under Gumbel noise), with exact probabilities."""
    if type(noise) is not str or noise not in NOISES:  # label: check-noise
        raise FailedFunctionError(
            f"must be 'exponential' or 'gumbel', got {shown(noise)}", parameter="noise"
        )
    if type(negate) is not bool:  # label: check-negate
        raise FailedFunctionError(f"must be True or False, got {shown(negate)}", parameter="negate")
    if type(scores) is np.ndarray:
        if scores.ndim != 1:  # label: check-ndim
            raise FailedFunctionError(
                f"must be one-dimensional, got {scores.ndim} dimensions", parameter="scores"
            )
        # integer and float16/32/64 arrays give Python ints and floats, exactly
        exact_dtype = scores.dtype.kind in "iu" or scores.dtype in (
            np.float16,
            np.float32,
            np.float64,
        )
        scores = scores.tolist() if exact_dtype else list(scores)  # label: array-items
    if not type_is(scores, list, tuple):  # label: check-sequence
        raise FailedFunctionError(
            f"must be a list, tuple or 1-d array, got {shown(scores)}", parameter="scores"
        )
    if not scores:  # label: check-empty
        raise FailedFunctionError("must not be empty", parameter="scores")
    if types_are(scores, int):  # label: all-int
        common, numerators = 1, scores
    else:
        if types_are(scores, float) and all(map(math.isfinite, scores)):  # label: all-float
            pairs = list(map(float.as_integer_ratio, scores))
        else:
            pairs = [exact_score(score, "scores") for score in scores]  # label: pairs
        common = math.lcm(*{denominator for _, denominator in pairs})  # label: common
        numerators = [n * (common // d) for n, d in pairs]  # label: numerators
    values = [-n for n in numerators] if negate else list(numerators)  # label: values
    scale = Fraction(*exact_score(scale, "scale"))  # label: scale-exact
    if scale <= 0:  # label: check-scale
        raise FailedFunctionError(f"must be positive, got {shown(scale)}", parameter="scale")
    if isinstance(k, np.integer):
        k = int(k)
    if type(k) is not int:  # label: check-k-type
        raise FailedFunctionError(f"must be an integer, got {shown(k)}", parameter="k")
    if not 1 <= k <= len(values):  # label: check-k
        raise FailedFunctionError(
            f"must lie in [1, {len(values)}] (the number of scores), got {k}", parameter="k"
        )
    unit = scale * common  # (max - values[j]) / unit = gap of the scores / scale  # label: unit
    return peeled_selection(entropy_source(), values, unit, k, NOISES[noise])  # label: run


# proof: end noisy-top-k
