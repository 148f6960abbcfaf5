"""Discrete Gaussian noise for scales beyond the threshold tables, vectorised on the split of
its discrete Laplace proposals.

Guarantee (discrete_gaussian_split.tex): for an exact rational ``sigma > 0`` whose proposal
scale ``t = floor(sigma) + 1`` has no threshold table, ``split_gaussian(sigma)`` returns
``(j, low, draw)``; ``draw(source, count)`` returns ``(quotients, proposals, negative, lows)``
describing ``count`` independent draws ``Z = (-1)^negative (2^j A + proposals 2^low + r)`` of
``N_Z(0, sigma^2)``: ``r`` is ``lows[i]`` where drawn, else uniform on ``[0, 2^low)``, not yet
drawn and independent of everything else (the form of ``split_laplace``'s draws).

Each round takes ``DLap(0, t)`` proposals from ``split_laplace`` (their low bits mostly
undrawn) and tests ``W < exp(-gamma(|Y|))`` (Algorithm 3 of Canonne, Kamath and Steinke) for
all of them at once: 64 digits of ``W`` against integer bounds of ``2^64 exp(-gamma)`` over the
bucket of ``|Y|`` given by its known top bits (each computed the first time a proposal falls in
it); only an undecided test draws the low bits and compares exactly.  No floating-point number
enters the noise.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .discrete_laplace_z2k_batch import (
    ALL_ONES,
    DYADIC,
    GUARD,
    PREFIX,
    series_bounds,
    split_laplace,
)
from .distinct import sorted_distinct
from .exp_digits import exp_neg_digits
from .uniform import EntropySource

__all__ = ["split_gaussian", "exp_neg_bounds", "gaussian_bucket_bound", "accept_gaussian"]

# proof: begin gaussian-split
#: Bits of the uniform proposal B (beyond the quotient A) that select a bucket.
BUCKET_BITS = 4  # label: bucket-bits
#: Quotients from this one on go to the exact test (the bucket index stays an int64).
QUOTIENT_LIMIT = 1 << 40  # label: quotient-limit


def exp_neg_bounds(n: int, d: int, digits: int) -> tuple[int, int]:
    """Integers ``lo <= 2^digits exp(-n / d) <= hi`` for integers ``n >= 0``, ``d >= 1``, by
    ``series_bounds`` at the dyadic point just above ``n / (d 2^h)`` and ``h`` outward
    squarings."""
    halvings = (n // d).bit_length()  # n / d < 2^halvings  # label: eb-halvings
    work = digits + halvings + GUARD  # label: eb-work
    # scaled / 2^D <= y := n / (d 2^h) < (scaled + 1) / 2^D <= 1
    scaled = (n << DYADIC) // (d << halvings)  # label: eb-scaled
    lo, hi = series_bounds(scaled + 1, work)  # label: eb-series
    # exp(-y) < exp(-(scaled + 1) / 2^D) exp(2^-D) <= hi (1 + 2^(1 - D))
    hi += (hi >> (DYADIC - 1)) + 1  # label: eb-widen
    for _ in range(halvings):  # exp(-2y) = exp(-y)^2, rounded outward
        lo = (lo * lo) >> work  # label: eb-square-lo
        hi = -((-(hi * hi)) >> work)  # label: eb-square-hi
    shift = work - digits
    return lo >> shift, -((-hi) >> shift)  # label: eb-rescale


def accept_gaussian(source: EntropySource, prefix: int, n: int, d: int) -> bool:
    """``W < exp(-n / d)`` for the uniform ``W`` whose first 64 digits are ``prefix``; further
    digits of ``W`` are drawn while the comparison is undecided."""
    if n == 0:  # exp(0) = 1 > W  # label: ag-zero
        return True
    lo, hi = exp_neg_bounds(n, d, PREFIX)  # label: ag-bounds
    if prefix < lo:  # W < (prefix + 1) / 2^64 <= exp(-n/d)  # label: ag-accept
        return True
    if prefix > hi:  # W >= prefix / 2^64 > exp(-n/d)  # label: ag-reject
        return False
    digits = PREFIX
    while True:
        threshold = exp_neg_digits(n, d, digits)  # floor(2^digits exp(-n/d))  # label: ag-threshold
        if prefix != threshold:
            return prefix < threshold  # label: ag-decided
        prefix = (prefix << PREFIX) | source.bits(PREFIX)  # label: ag-more
        digits += PREFIX


def gaussian_bucket_bound(
    g0: int, g1: int, vertex: Fraction, numerator, d: int, point_bounds: dict
) -> tuple[int, int]:
    """For every magnitude ``g0 <= g <= g1``: ``(below, above)`` with ``below <= 2^64
    exp(-gamma(g))`` and ``min(2^64 exp(-gamma(g)), 2^64 - 1) <= above <= 2^64 - 1``, where
    ``gamma(g) = numerator(g) / d`` is a convex parabola with its vertex at ``vertex``;
    ``point_bounds`` keeps ``exp_neg_bounds`` of each end."""
    for point in (g0, g1):
        if point not in point_bounds:
            point_bounds[point] = exp_neg_bounds(numerator(point), d, PREFIX)  # label: gb-point
    (lo0, hi0), (lo1, hi1) = point_bounds[g0], point_bounds[g1]
    below = min(lo0, lo1)  # gamma is largest at an end  # label: gb-below
    if g0 <= vertex <= g1:  # gamma's minimum is 0, inside  # label: gb-vertex
        return below, ALL_ONES
    return below, min(max(hi0, hi1), ALL_ONES)  # otherwise smallest at an end  # label: gb-above


def split_gaussian(sigma: Fraction, exponent):
    """``(j, low, draw)`` for ``N_Z(0, sigma^2)`` where ``t = floor(sigma) + 1`` has no
    threshold table, given ``exponent = acceptance_exponent(sigma)``: ``draw(source, count)``
    returns ``(quotients, proposals, negative, lows)`` in the form of ``split_laplace``'s
    draws."""
    t, d, numerator = exponent  # gamma(y) = numerator(|y|) / d  # label: gs-exponent
    vertex = sigma * sigma / t  # gamma(y) = (|y| - vertex)^2 / (2 sigma^2)  # label: gs-vertex
    j, low, laplace = split_laplace(t, 1)  # DLap(0, t) proposals  # label: gs-proposals
    top = j - low  # bits of B drawn at once  # label: gs-top
    h = min(top, BUCKET_BITS)  # label: gs-h
    width = j - h  # a bucket holds the magnitudes [i 2^width, (i + 1) 2^width)  # label: gs-width
    buckets: dict[int, tuple[int, int]] = {}  # bucket -> (below, above)
    point_bounds: dict[int, tuple[int, int]] = {}

    def bounds(i: int) -> tuple[int, int]:
        if i not in buckets:
            buckets[i] = gaussian_bucket_bound(
                i << width, (i + 1) << width, vertex, numerator, d, point_bounds
            )  # label: gs-bucket
        return buckets[i]

    def draw(source: EntropySource, count: int):
        quotients = np.zeros(count, dtype=object)
        proposals = np.zeros(count, dtype=np.uint64)
        negative = np.zeros(count, dtype=bool)
        lows: dict[int, int] = {}  # the low bits of accepted draws, by element
        pending = np.arange(count)
        while pending.size:  # every pending element draws afresh  # label: gs-rounds
            size = pending.size
            a, b, sign, round_lows = laplace(source, size)  # label: gs-laplace
            w = source.words(size)  # the first 64 digits of W  # label: gs-w
            capped = np.minimum(a, QUOTIENT_LIMIT).astype(np.int64)  # label: gs-capped
            small = capped < QUOTIENT_LIMIT
            bucket = (np.where(small, capped, 0) << h) | (b >> np.uint64(top - h)).astype(
                np.int64
            )  # label: gs-bucket-index
            unique, inverse = sorted_distinct(bucket, inverse=True)  # label: gs-distinct
            table = [bounds(i) for i in unique.tolist()]
            below = np.array([lo for lo, _ in table], dtype=np.uint64)[inverse]
            above = np.array([hi for _, hi in table], dtype=np.uint64)[inverse]
            accepted = small & (w < below)  # label: gs-accept
            undecided = ~accepted & (~small | (w <= above))  # label: gs-undecided
            for u in np.flatnonzero(undecided).tolist():
                if u not in round_lows:
                    round_lows[u] = source.bits(low)  # label: gs-low-for-test
                g = (int(a[u]) << j) | (int(b[u]) << low) | round_lows[u]  # label: gs-g
                accepted[u] = accept_gaussian(source, int(w[u]), numerator(g), d)  # label: gs-test
            done = pending[accepted]
            quotients[done] = np.asarray(a, dtype=object)[accepted]  # label: gs-store
            proposals[done] = b[accepted]
            negative[done] = sign[accepted]
            for u in np.flatnonzero(accepted).tolist():
                if u in round_lows:
                    lows[int(pending[u])] = round_lows[u]  # label: gs-keep-low
            pending = pending[~accepted]  # a rejected element forgets its bits  # label: gs-pending
        return quotients, proposals, negative, lows

    return j, low, draw


# proof: end gaussian-split
