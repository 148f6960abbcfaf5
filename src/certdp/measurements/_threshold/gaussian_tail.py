"""The delta of a thresholded Gaussian release: an upper bound on the chance that a key held
on one side only survives the threshold.

Guarantee (gaussian_tail.tex): for an exact rational ``scale > 0`` and an integer ``distance
>= 0``, ``gaussian_tail_bound(scale, distance)`` returns an exact rational ``h >= P[Z >=
distance]`` for ``Z ~ N_Z(0, scale^2)`` (the discrete Gaussian), ``h <= 1/2`` when ``distance
>= 1``; ``gaussian_threshold_delta(scale, distance, l0)`` returns an f64 ``>= 1 - (1 - P[Z >=
distance])^l0`` for integers ``0 <= l0 < 2^64`` (an upper bound, not the exact value rounded)
and raises :class:`FailedMapError` for ``l0 >= 2^64``.

Cost: one tail bound makes ``3 * TAIL_BLOCKS + 2 + NORM_TERMS`` (= 450) exponential
enclosures. ``2 scale^2`` is first rounded up, and ``scale`` down (for the normaliser), to
dyadics of ``WORK_BITS + 1`` bits, and each run's exponents down or up to such dyadics, so,
powers of two aside, no enclosure sees a numerator or denominator longer than
``2 WORK_BITS + 2`` bits, however long the scale's exact value (up to the 1075 bits
``exact_scale`` allows). What is left of the time grows with the size of the exponents (an
enclosure's precision is ``WORK_BITS + 3x/2`` bits for ``exp(-x)``, ``x <= FAR_EXPONENT``) and,
mildly, with the bit lengths of ``distance`` and ``l0``.
"""

from __future__ import annotations

from fractions import Fraction
from math import isqrt

from certdp.core.errors import FailedMapError
from certdp.measurements._threshold.threshold_delta import _exp_neg, _power_enclosure
from certdp.numeric import round_rational

__all__ = ["gaussian_threshold_delta", "gaussian_tail_bound", "normaliser_lower"]


# proof: begin gaussian-tail
#: Blocks of the tail summed one by one from the distance; a geometric series bounds the rest.
TAIL_BLOCKS = 128  # label: tail-blocks
#: A block spans ``max(1, floor(scale / BLOCK_DIVISOR))`` integers.
BLOCK_DIVISOR = 32  # label: block-divisor
#: Terms of the normaliser summed on each side of 0 (for small scales).
NORM_TERMS = 64  # label: norm-terms
#: A rational below pi (pi = 3.14159265358979323...).
PI_BELOW = Fraction(314159265358979, 10**14)  # label: pi-below
#: Fixed-point bits of every enclosure.
WORK_BITS = 96  # label: work-bits


def _dyadic(x: Fraction, up: bool) -> Fraction:
    """A dyadic ``m 2^e``, ``0 <= m <= 2^(WORK_BITS + 1)``, that is ``>= x`` (``up``) or ``<= x``
    (not ``up``), for a rational ``x >= 0``; ``> 0`` when ``x > 0``."""
    e = x.numerator.bit_length() - x.denominator.bit_length() - WORK_BITS
    num, den = (x.numerator, x.denominator << e) if e >= 0 else (x.numerator << -e, x.denominator)
    m = -(-num // den) if up else num // den  # label: dyadic-round
    return m * Fraction(2) ** e  # label: dyadic


def _mass_above(x: Fraction) -> Fraction:
    """An exact rational ``>= exp(-x)``, ``x >= 0``, to about ``WORK_BITS`` significant bits."""
    return _exp_neg(x, WORK_BITS + int(x * 3 / 2))[1]  # label: mass-above


def _run_above(start: int, width: int, s: Fraction) -> Fraction:
    """An exact rational ``>= sum of exp(-z^2 / s)`` over ``start <= z < start + width``
    (``width = 0`` for every ``z >= start``), ``start >= 0``, ``s > 0``."""
    x = _dyadic((2 * start + 1) / s, up=False)  # label: run-x
    gap = max(x / (1 + x), 1 - _exp_neg(x, WORK_BITS)[1])  # label: run-gap
    top = _mass_above(_dyadic(start * start / s, up=False))  # label: run-top
    if width == 0:
        return top / gap  # label: run-rest
    far = _exp_neg(_dyadic((2 * start + 1) * width / s, up=True), WORK_BITS)[0]  # label: run-far
    spread = min(Fraction(width), (1 - far) / gap)  # label: spread
    return top * spread  # label: run-block


def normaliser_lower(scale: Fraction) -> Fraction:
    """An exact rational ``<= sum over integers z of exp(-z^2 / (2 scale^2))``."""
    s = 2 * scale * scale
    root = isqrt((2 * PI_BELOW * (1 << (2 * WORK_BITS))).__floor__())  # label: root-2pi
    poisson = scale * Fraction(root, 1 << WORK_BITS)  # label: poisson
    direct = Fraction(1)
    for z in range(1, NORM_TERMS + 1):
        direct += 2 * _exp_neg(z * z / s, WORK_BITS)[0]  # label: direct
    return max(poisson, direct)  # label: normaliser


def gaussian_tail_bound(scale: Fraction, distance: int) -> Fraction:
    """An exact rational ``>= P[Z >= distance]`` for ``Z ~ N_Z(0, scale^2)``, ``scale > 0``,
    ``distance >= 0``."""
    s = _dyadic(2 * scale * scale, up=True)  # label: s-up
    width = max(1, int(scale / BLOCK_DIVISOR))  # label: width
    head = Fraction(0)
    for block in range(TAIL_BLOCKS):
        head += _run_above(distance + block * width, width, s)  # label: head
    rest = _run_above(distance + TAIL_BLOCKS * width, 0, s)  # label: rest
    normaliser = normaliser_lower(_dyadic(scale, up=False))  # label: norm
    half = Fraction(1, 2) if distance >= 1 else (1 + 1 / normaliser) / 2  # label: half
    return min((head + rest) / normaliser, half)  # label: tail-bound


def gaussian_threshold_delta(scale: Fraction, distance: int, l0: int) -> float:
    """An f64 ``>= 1 - (1 - p)^l0`` with ``p = P[Z >= distance]``, ``Z ~ N_Z(0, scale^2)``:
    the chance that one of ``l0`` keys, each ``distance`` below the threshold, survives it."""
    if l0 >= 1 << 64:  # label: g-l0-range
        raise FailedMapError(f"l0 must be below 2^64, got {l0}", parameter="d_in")
    if l0 == 0:
        return 0.0  # label: g-no-keys
    p = gaussian_tail_bound(scale, distance)  # label: g-p
    bits = WORK_BITS + l0.bit_length() + 8
    kept, _ = _power_enclosure(1 - p, 1 - p, l0, bits)  # label: g-kept
    delta = min(1 - Fraction(kept, 1 << bits), l0 * p)  # label: g-delta
    return round_rational(delta, "f64", "up")  # label: g-round-up


# proof: end gaussian-tail
