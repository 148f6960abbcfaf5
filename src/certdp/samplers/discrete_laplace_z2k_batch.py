"""Discrete Laplace noise on the grid ``2^k Z`` for a whole vector of f64 values, vectorised.

Guarantee (discrete_laplace_z2k_batch.tex): ``discrete_laplace_Z2k_batch_sampler(scale, k, T)``
returns a function of ``(source, shifts)`` whose ``i``-th result has exactly the law of
``discrete_laplace_Z2k_sampler(scale, k, T)(source, shifts[i])``, independently across ``i``:
``round_T(2^k (c_i + Z_i))`` with ``Z_i ~ DLap(0, scale / 2^k)``.

Where the grid is much finer than the scale (``scale / 2^k = t / s`` beyond the direct
algorithm's reach, e.g. ``k = -1074``), the magnitude of ``Z`` is a geometric variable ``G``
with ratio ``exp(-s / t)``, written ``G = 2^j A + B``: ``A`` is geometric with ratio
``exp(-x)``, ``x = 2^j s / t`` in ``(1/16, 1/8]``, and ``B`` has weights ``exp(-b s / t)`` on
``[0, 2^j)``, drawn by rejection from a uniform proposal.  The proposal's top bits and 64 digits
of the uniform of each rejection test are drawn for all elements at once (numpy) and the test is
decided from bounds for ``2^8`` buckets (each computed when first needed, by a fixed-point
series) for all but a fraction of about ``2^-11`` of the draws; the
proposal's low ``j - 64`` bits are drawn only for the draws whose rounded result they can
change.  No floating-point number enters the noise: each result is the rounding of an exact
integer multiple of ``2^k``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from .discrete_laplace import discrete_laplace_batch_sampler
from .discrete_laplace_z2k import (
    discrete_laplace_Z2k_sampler,
    grid_point_to_float,
    nearest_grid_index,
)
from .exp_digits import exp_neg_digits
from .geometric import geometric_batch_by_inversion, threshold_table
from .uniform import EntropySource

__all__ = [
    "discrete_laplace_Z2k_batch_sampler",
    "discrete_laplace_large_batch_sampler",
    "split_laplace",
    "split_to_integers",
    "split_to_floats",
    "split_exponent",
    "bucket_bound",
]

# proof: begin z2k-batch
#: Digits of the uniform ``W`` and top bits of the proposal drawn for every element at once.
PREFIX = 64  # label: prefix-bits
#: The acceptance test looks the top ``BUCKETS`` bits of the proposal up in a table.
BUCKETS = 8  # label: bucket-bits
#: Bits of the dyadic approximations of exponents (the bucket bounds and the second test).
DYADIC = 128  # label: dyadic-bits
#: Extra bits of the fixed-point series.
GUARD = 16  # label: guard
ALL_ONES = (1 << PREFIX) - 1


def split_exponent(s: int, t: int) -> int:
    """The ``j >= 0`` with ``1/16 < 2^j s / t <= 1/8``, for integers ``t >= 8 s >= 8``."""
    return (t // (8 * s)).bit_length() - 1  # 2^j <= t / 8s < 2^(j + 1)  # label: split-j


def series_bounds(m: int, digits: int) -> tuple[int, int]:
    """Integers ``lo <= 2^digits exp(-m / 2^DYADIC) <= hi`` for ``0 <= m <= 2^DYADIC``, by the
    alternating Taylor series in fixed point with ``GUARD`` extra bits, each term bounded below
    (``down``) and above (``up``)."""
    one = 1 << (digits + GUARD)  # label: series-one
    down = up = low = high = one  # the term of index 0, and the partial sums S_0
    lower, upper = 0, one  # S_K for the last odd K (from below) and even K (from above)
    index, small = 0, 0
    while small < 2:  # until two consecutive terms are at most one unit  # label: series-stop
        index += 1
        down = (down * m >> DYADIC) // index  # <= 2^w y^i / i!  # label: term-down
        ceiling = -(-(up * m) >> DYADIC)  # ceil(up m / 2^D)
        up = -(-ceiling // index)  # >= 2^w y^i / i!  # label: term-up
        if index & 1:  # subtracted: an upper bound of the term lowers the sum
            low, high = low - up, high - down  # label: odd-term
            lower = low
        else:
            low, high = low + down, high + up  # label: even-term
            upper = high
        small = small + 1 if up <= 1 else 0
    return max(lower, 0) >> GUARD, -((-upper) >> GUARD)  # label: series-scale


def exp_bounds(n: int, t: int, digits: int) -> tuple[int, int]:
    """Integers ``lo <= 2^digits exp(-n / t) <= hi`` (``0 <= n < t``), computed on the dyadic
    neighbours of ``n / t`` (cheap when ``n`` and ``t`` are large)."""
    scaled = (n << DYADIC) // t  # scaled / 2^D <= n / t < (scaled + 1) / 2^D  # label: scaled
    return series_bounds(scaled + 1, digits)[0], series_bounds(scaled, digits)[1]  # label: bounds


def bucket_bound(n: int, t: int, h: int, i: int) -> tuple[int, int]:
    """For bucket ``i < 2^h`` of ``[0, 1)``: a lower bound of ``2^64 exp(-y (i+1) / 2^h)`` (a
    prefix of ``W`` below it accepts every proposal of the bucket) and an upper bound of ``2^64
    exp(-y i / 2^h)``, at most ``2^64 - 1`` (a prefix above it rejects every one), ``y = n / t``
    (``y <= 1``)."""
    below = exp_bounds(n * (i + 1), t << h, PREFIX)[0]  # label: below
    above = min(exp_bounds(n * i, t << h, PREFIX)[1], ALL_ONES)  # label: above
    return below, above


def accept_exactly(source: EntropySource, prefix: int, n: int, t: int) -> bool:
    """``W < exp(-n / t)`` for the uniform ``W`` whose first 64 digits are ``prefix``; further
    digits of ``W`` are drawn while the comparison is undecided."""
    lo, hi = exp_bounds(n, t, PREFIX)  # label: prefix-bounds
    if prefix < lo:  # W < (prefix + 1) / 2^64 <= lo / 2^64 <= exp(-n/t)  # label: bound-accept
        return True
    if prefix > hi:  # W >= prefix / 2^64 > hi / 2^64 >= exp(-n/t)  # label: bound-reject
        return False
    if n == 0:  # exp(0) = 1 > W  # label: exp-zero
        return True
    digits = PREFIX
    while True:
        threshold = exp_neg_digits(n, t, digits)  # floor(2^digits exp(-n/t))  # label: threshold
        if prefix < threshold:  # label: exact-accept
            return True
        if prefix > threshold:  # label: exact-reject
            return False
        prefix = (prefix << PREFIX) | source.bits(PREFIX)  # label: more-digits
        digits += PREFIX


def _same_float(a: float, b: float) -> bool:
    """Are ``a`` and ``b`` the same float (``-0.0`` and ``0.0`` differ)?"""
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)  # label: same-float


def two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``s = fl(a + b)`` and ``e`` with ``a + b = s + e`` exactly (Knuth's TwoSum, in f64 with
    rounding to nearest, where no operation overflows)."""
    total = a + b  # label: ts-sum
    b_virtual = total - a
    a_virtual = total - b_virtual
    return total, (a - a_virtual) + (b - b_virtual)  # label: ts-error


def fast_rounding(shifts, quotients, proposals, negative, k: int, j: int, low: int):
    """For ``-1074 <= k <= 0``: ``(values, decided)``, where for every ``i`` with ``decided[i]``,
    ``values[i]`` is ``round_f64(2^k (c_k(shifts[i]) +- G))`` for every ``G`` in
    ``[A 2^j + B_top 2^low, A 2^j + (B_top + 1) 2^low)`` (``A = quotients[i]``, ``B_top =
    proposals[i]``, ``-`` where ``negative[i]``), computed with f64 arithmetic whose every
    operation is exact or bounded; the others are left to the exact integer path."""
    x = np.asarray(shifts, dtype=np.float64)  # label: fr-x
    # every error silenced, whatever the process-wide NumPy setting: non-finite or underflowed
    # intermediates fail the flag or are exact
    with np.errstate(all="ignore"):  # label: fr-errstate
        y = np.ldexp(x, -k)  # x / 2^k, exact unless it overflows (k <= 0)  # label: fr-y
        floor = np.floor(y)
        index = floor + (y - floor >= 0.5)  # c_k(x), where y is finite  # label: fr-index
        grid = np.where(np.isfinite(y), np.ldexp(index, k), x)  # 2^k c_k(x)  # label: fr-grid
        # min(A, 2^21), converted exactly (no OverflowError for a huge Python-int A)
        a = np.minimum(quotients, 2**21).astype(np.float64)  # label: fr-a
        unit = np.ldexp(1.0, k + low)  # 2^(k + low): B_top's unit  # label: fr-unit
        high = (proposals >> np.uint64(32)).astype(np.float64) * (unit * 2.0**32)  # label: fr-high
        rest = (proposals & np.uint64(2**32 - 1)).astype(np.float64) * unit  # label: fr-rest
        upper = a * np.ldexp(1.0, k + j) + high  # exact for A < 2^21  # label: fr-upper
        sign = np.where(negative, -1.0, 1.0)
        s1, e1 = two_sum(grid, sign * upper)  # label: fr-s1
        s2, e2 = two_sum(e1, sign * rest)  # label: fr-s2
        s3, e3 = two_sum(s1, s2)  # grid +- (upper + rest) = s3 + e3 + e2  # label: fr-s3
        spacing = np.minimum(np.nextafter(s3, np.inf) - s3, s3 - np.nextafter(s3, -np.inf))
        # the undrawn low bits add less than 2^(k + low) (nothing when there are none)
        tail = (np.abs(e3) + np.abs(e2)) + (unit if low else 0.0)  # label: fr-tail
        decided = (  # label: fr-decided
            (a < 2.0**21)
            & (np.abs(grid) < 2.0**1020)
            & (np.abs(upper) < 2.0**1020)
            & (np.abs(s3) < 2.0**1020)
            & (spacing >= 2.0**-1021)
            & (tail <= spacing * 0.5 * (1 - 2.0**-40))
        )
    return s3.tolist(), decided.tolist()


@functools.lru_cache(maxsize=64)  # label: table-cache
def quotient_threshold_table(n: int, t: int) -> tuple[int, ...]:
    """``threshold_table(n, t)`` as a tuple, kept for the process (the 64 most recent): samplers
    of the same scale share it, and none builds it before its first draw."""
    return tuple(threshold_table(n, t))  # label: table-tuple


def split_laplace(t: int, s: int):
    """For ``t / s`` without a threshold table (``t > 92 s``): ``(j, low, draw)``, where
    ``draw(source, count)`` returns ``(quotients, proposals, negative, lows)`` describing
    ``count`` independent draws ``Z = (-1)^negative (2^j A + proposals 2^low + r)`` of
    ``DLap(0, t / s)``: ``r`` is ``lows[i]`` where drawn, else uniform on ``[0, 2^low)`` and not
    yet drawn (independent of everything else)."""
    j = split_exponent(s, t)  # label: j
    n = s << j  # A has ratio exp(-n / t); B has weights exp(-b s / t)  # label: n
    top = min(j, PREFIX)  # bits of the proposal drawn at once  # label: top
    low = j - top  # bits drawn only when needed  # label: low
    h = min(top, BUCKETS)  # label: h
    # the bucket bounds, each computed the first time a proposal falls in its bucket
    below = np.zeros(1 << h, dtype=np.uint64)
    above = np.full(1 << h, ALL_ONES, dtype=np.uint64)
    filled = np.zeros(1 << h, dtype=bool)

    def draw(source: EntropySource, count: int):
        quotient_table = quotient_threshold_table(n, t)  # label: quotient-table
        quotients = np.zeros(count, dtype=object)
        proposals = np.zeros(count, dtype=np.uint64)
        negative = np.zeros(count, dtype=bool)
        lows: dict[int, int] = {}  # the low bits of B drawn so far, by element
        pending = np.arange(count)
        while pending.size:  # every pending element draws afresh  # label: rounds
            size = pending.size
            a = geometric_batch_by_inversion(source, n, t, quotient_table, size)  # label: a
            b = source.words(size) >> np.uint64(PREFIX - top)  # label: b-top
            w = source.words(size)  # label: w-prefix
            sign = source.bit_array(size).astype(bool)  # label: sign-bits
            bucket = (b >> np.uint64(top - h)).astype(np.intp)  # label: bucket
            met = np.zeros(1 << h, dtype=bool)  # the buckets not filled that proposals fall in
            met[bucket[~filled[bucket]]] = True  # label: met
            for i in np.flatnonzero(met).tolist():  # label: new-buckets
                below[i], above[i] = bucket_bound(n, t, h, i)  # label: build-bounds
                filled[i] = True
            accepted = w < below[bucket]  # label: accept-bucket
            for u in np.flatnonzero(~accepted & (w <= above[bucket])).tolist():  # label: undecided
                element = int(pending[u])
                lows[element] = source.bits(low)  # label: low-for-test
                proposal = (int(b[u]) << low) | lows[element]
                accepted[u] = accept_exactly(source, int(w[u]), proposal * s, t)  # label: test
            # a negative zero is rejected: G = 0 needs A = 0 and every bit of B zero
            zero = accepted & sign & (b == 0) & (np.asarray(a) == 0)  # label: maybe-zero
            for u in np.flatnonzero(zero).tolist():
                element = int(pending[u])
                if element not in lows:
                    lows[element] = source.bits(low)  # label: low-for-zero
                if lows[element] == 0:
                    accepted[u] = False  # label: reject-zero
            done = pending[accepted]
            quotients[done] = np.asarray(a, dtype=object)[accepted]  # label: store
            proposals[done] = b[accepted]
            negative[done] = sign[accepted]
            for element in pending[~accepted].tolist():
                lows.pop(element, None)  # a rejected element forgets its bits  # label: forget
            pending = pending[~accepted]
        return quotients, proposals, negative, lows

    return j, low, draw


def split_to_integers(source: EntropySource, j: int, low: int, draws) -> np.ndarray:
    """The integers ``(-1)^negative (2^j A + proposals 2^low + r)`` of split draws ``draws =
    (quotients, proposals, negative, lows)`` (the form ``split_laplace``'s ``draw`` returns),
    as an ``object`` array; the low bits ``r`` not in ``lows`` are drawn now."""
    quotients, proposals, negative, lows = draws
    count = len(quotients)
    integers = np.zeros(count, dtype=object)
    parts = zip(quotients.tolist(), proposals.tolist(), negative.tolist())
    for i, (a_i, b_i, minus) in enumerate(parts):
        r = lows[i] if i in lows else source.bits(low)  # label: large-low
        g = (a_i << j) | (b_i << low) | r  # label: large-g
        integers[i] = -g if minus else g  # label: large-z
    return integers


def discrete_laplace_large_batch_sampler(
    scale: Fraction,
) -> Callable[[EntropySource, int], np.ndarray]:
    """A sampler of ``count`` independent draws of DLap(0, scale) as a numpy array, like
    ``discrete_laplace_batch_sampler(scale)`` (which it is where a threshold table exists), and
    vectorised by the split above where none does (an ``object`` array then)."""
    t, s = scale.numerator, scale.denominator
    if scale == 0 or threshold_table(s, t) is not None:  # label: large-not
        return discrete_laplace_batch_sampler(scale)  # label: large-direct
    j, low, draw = split_laplace(t, s)

    def sample(source: EntropySource, count: int) -> np.ndarray:
        return split_to_integers(source, j, low, draw(source, count))  # label: large-split

    return sample


def split_to_floats(source: EntropySource, shifts, k: int, j: int, low: int, draws) -> list:
    """``[round_f64(2^k (c_k(shifts[i]) + Z_i))]`` for the split draws ``draws = (quotients,
    proposals, negative, lows)`` of ``Z_i = (-1)^negative (2^j A + proposals 2^low + r)`` (the
    form ``split_laplace``'s ``draw`` returns); the low bits ``r`` not in ``lows`` are drawn only
    where the rounding needs them."""
    T = "f64"  # label: f64-only
    count = len(shifts)
    quotients, proposals, negative, lows = draws  # label: draws
    spread = (1 << low) - 1  # G lies in [known, known + spread] until its low bits are drawn
    if -1074 <= k <= 0:  # f64 arithmetic decides nearly every rounding  # label: fast
        results, decided = fast_rounding(shifts, quotients, proposals, negative, k, j, low)
        exact = [i for i, ok in enumerate(decided) if not ok or i in lows]  # label: exact-set
    else:
        results, exact = [0.0] * count, range(count)
    columns = quotients.tolist(), proposals.tolist(), negative.tolist()
    for i in exact:
        x, a_i, b_i, minus = shifts[i], columns[0][i], columns[1][i], columns[2][i]
        c = nearest_grid_index(x, k)  # label: batch-index
        known = (a_i << j) | (b_i << low)  # G with its undrawn low bits zero  # label: known
        if i not in lows:
            first = c - known if minus else c + known  # label: first
            last = first - spread if minus else first + spread  # label: last
            value = grid_point_to_float(first, k, T)  # label: round-first
            other = grid_point_to_float(last, k, T)  # label: round-last
            if _same_float(value, other):  # label: same
                results[i] = value
                continue
            lows[i] = source.bits(low)  # label: low-for-rounding
        g = known | lows[i]  # label: g
        results[i] = grid_point_to_float(c - g if minus else c + g, k, T)  # label: exact
    return results


def discrete_laplace_Z2k_batch_sampler(
    scale: Fraction, k: int, T: str
) -> Callable[[EntropySource, list], list]:
    """A sampler of ``[discrete_laplace_Z2k_sampler(scale, k, T)(source, x) for x in shifts]``
    (the same law, independent draws), vectorised for f64 on a grid much finer than the scale."""
    single = discrete_laplace_Z2k_sampler(scale, k, T)  # label: single
    grid_scale = scale * (Fraction(1, 1 << k) if k >= 0 else (1 << -k))  # label: batch-grid-scale
    t, s = grid_scale.numerator, grid_scale.denominator  # grid_scale = t / s
    if T != "f64" or scale == 0 or threshold_table(s, t) is not None:  # label: not-fine

        def one_by_one(source: EntropySource, shifts: list) -> list:
            return [single(source, x) for x in shifts]  # label: one-by-one-z2k

        return one_by_one

    j, low, draw = split_laplace(t, s)  # label: split

    def sample(source: EntropySource, shifts: list) -> list:
        return split_to_floats(source, shifts, k, j, low, draw(source, len(shifts)))  # label: draw

    return sample


# proof: end z2k-batch
