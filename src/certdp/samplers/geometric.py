"""Exact geometric variables with ratio ``exp(-x)`` for rational ``x > 0``.

Guarantee (geometric.tex): a sampler built by ``geometric_exp_sampler(n, d)``
returns the integer ``v >= 0`` with probability exactly
``(1 - exp(-x)) * exp(-v x)``, ``x = n / d`` (integers ``n, d >= 1``).

Two exact algorithms:

* by inversion (``x`` not too small): ``V = #{v >= 1 : W < exp(-v x)}`` for a
  uniform real ``W`` in [0, 1) whose binary digits are drawn only as far as the
  comparisons need; the first 64 digits of every ``exp(-v x)`` that can matter
  are tabulated, so a draw usually costs 64 random bits and one binary search;
* by counting (any ``x``): successes of Bernoulli(exp(-x)) trials before the
  first failure.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from certdp.core.errors import FailedFunctionError

from ._arguments import exact_inputs, exact_rational
from .bernoulli_exp import bernoulli_exp_ratio
from .exp_digits import exp_neg_digits, exp_neg_enclosure
from .uniform import EntropySource, entropy_source

__all__ = [
    "TABLE_LIMIT",
    "threshold_table",
    "geometric_by_trials",
    "geometric_by_inversion",
    "geometric_refine",
    "geometric_batch_by_inversion",
    "geometric_exp_sampler",
    "sample_geometric_exp",
]

# proof: begin threshold-table
#: Longest threshold table built; below x = 44 / TABLE_LIMIT the counting algorithm is used.
TABLE_LIMIT = 4096  # label: table-limit
#: Digits of W and of the thresholds compared at once.
WORD = 64  # label: word


def threshold_table(n: int, d: int, limit: int = TABLE_LIMIT) -> list[int] | None:
    """``[floor(2^64 exp(-v n/d)) for v = 1, 2, ..., L]``, where ``L`` is the first ``v`` whose
    entry is 0; ``None`` when ``L`` would exceed ``limit``."""
    # exp(-limit x) > exp(-44) > 2^-64: the entry for v = limit is not 0
    if n * limit < 44 * d:  # label: too-long
        return None
    precision = 2 * WORD + limit.bit_length()
    unit_lo, unit_hi = exp_neg_enclosure(n, d, precision)  # label: unit-enclosure
    lo = hi = 1 << precision  # exp(-0 x) = 1, exactly
    drop = precision - WORD
    table = []
    for v in range(1, limit + 1):
        lo = (lo * unit_lo) >> precision  # label: power-lo
        hi = -((-(hi * unit_hi)) >> precision)  # label: power-hi
        entry = lo >> drop
        if entry != hi >> drop:  # the enclosure straddles a digit boundary
            entry = exp_neg_digits(v * n, d, WORD)  # label: entry-exact
        table.append(entry)
        if entry == 0:
            return table
    return None


# proof: end threshold-table


# proof: begin inversion
def geometric_by_inversion(
    source: EntropySource, n: int, d: int, table: list[int], ascending: list[int]
) -> int:
    """``#{v >= 1 : W < exp(-v n/d)}`` for a uniform real ``W`` in [0, 1).

    ``table`` comes from :func:`threshold_table`; ``ascending`` is its negation.
    """
    # W lies in [prefix, prefix + 1) / 2^64
    prefix = source.bits(WORD)  # label: prefix
    # the entries > prefix form a leading run of the table
    count = bisect_left(ascending, -prefix)  # label: count
    if table[count] < prefix:  # label: decided
        return count
    return geometric_refine(source, n, d, prefix, count + 1)  # label: undecided


def geometric_refine(source: EntropySource, n: int, d: int, prefix: int, v: int) -> int:
    """Finish the count when the 64 digits ``prefix`` of ``W`` show ``W < exp(-u n/d)`` for every
    ``u < v`` and equal the first 64 digits of ``exp(-v n/d)``."""
    digits = WORD
    while True:
        threshold = exp_neg_digits(v * n, d, digits)  # label: threshold
        if prefix < threshold:  # W < exp(-v x): try the next v  # label: below
            v += 1
        elif prefix > threshold:  # W > exp(-v x), and so for every later v  # label: above
            return v - 1
        else:  # undecided: draw more digits of W
            prefix = (prefix << WORD) | source.bits(WORD)  # label: refine
            digits += WORD


def geometric_batch_by_inversion(
    source: EntropySource, n: int, d: int, table: list[int], count: int
) -> np.ndarray:
    """``count`` independent draws of :func:`geometric_by_inversion`, vectorised: an ``int64``
    array, or an ``object`` array in the (improbable) case of a draw of ``2**62`` or more."""
    prefixes = source.words(count)  # label: batch-prefixes
    descending = np.array(table, dtype=np.uint64)
    ascending = descending[::-1]
    counts = len(table) - np.searchsorted(ascending, prefixes, side="right")  # label: batch-count
    undecided = np.flatnonzero(descending[counts] == prefixes)  # label: batch-undecided
    if undecided.size == 0:
        return counts
    finished = [
        geometric_refine(source, n, d, int(prefixes[i]), int(counts[i]) + 1) for i in undecided
    ]
    if max(finished) >= 1 << 62:
        counts = counts.astype(object)
    counts[undecided] = finished  # label: batch-refined
    return counts


# proof: end inversion


# proof: begin trials
def geometric_by_trials(source: EntropySource, n: int, d: int) -> int:
    """Successes of Bernoulli(exp(-n / d)) trials before the first failure."""
    successes = 0
    while bernoulli_exp_ratio(source, n, d):  # label: trial
        successes += 1
    return successes


# proof: end trials


# proof: begin geometric-sampler
def geometric_exp_sampler(n: int, d: int) -> Callable[[EntropySource], int]:
    """A sampler of the geometric distribution with ratio ``exp(-n / d)`` (``n, d >= 1``)."""
    table = threshold_table(n, d)  # label: build-table
    if table is None:

        def by_trials(source: EntropySource) -> int:
            return geometric_by_trials(source, n, d)  # label: use-trials

        return by_trials
    ascending = [-entry for entry in table]

    def by_inversion(source: EntropySource) -> int:
        return geometric_by_inversion(source, n, d, table, ascending)  # label: use-inversion

    by_inversion.table = table
    return by_inversion


# proof: end geometric-sampler


#: The smallest rate the public entry point accepts: below 44 / TABLE_LIMIT a draw counts
#: Bernoulli trials, about 1 / x of them, so 2^-16 bounds its time to a fraction of a second.
SMALLEST_PUBLIC_RATE = Fraction(1, 1 << 16)


@exact_inputs
def sample_geometric_exp(x) -> int:
    """``v >= 0`` with probability exactly ``(1 - exp(-x)) exp(-x v)``, for a rational ``x > 0``."""
    x = exact_rational(x, "x")
    if x <= 0:
        raise FailedFunctionError(f"must be positive, got {x}", parameter="x")
    if x < SMALLEST_PUBLIC_RATE:
        raise FailedFunctionError(
            "must be at least 2^-16: below it a draw takes time proportional to 1/x",
            parameter="x",
        )
    return geometric_exp_sampler(x.numerator, x.denominator)(entropy_source())
