"""SMT model of ``make_mean`` and its bounded theorem, on the summation model.

Model of the function (make_mean.py): the sum that ``make_sum`` picks (the Pairwise checked
sum for the bounds below: :func:`certdp.transformations._summation.smt_model.pairwise_tree`,
flagging an infinite or NaN total), clamped to ``[l, h]`` and multiplied by ``c``, the product
rounded to nearest, ties to even (``fpMul`` in round-nearest-even is exactly the code's
``round_rational`` of the exact product, except that an exact zero product is ``+0.0`` there:
the model says so).  ``l = RD(n L)``, ``h = RU(n U)``, ``c = RN(1/n)``.

Model of the map: ``RU(RU(c * sigma(d_in)) + ulp(w))`` with ``w = RU(max(|l|, h) * c)``, as the
code computes it, in the format of the obligation; ``sigma`` is the sum's map.
``tests/prove/test_mean_model.py`` checks, in f32 and f64, that the function model equals the
code bit for bit on random datasets, and that :func:`mean_map` with the code's own sum map
equals the code's mean map bit for bit.

Obligations: for every dataset of exactly ``n`` records in ``[L, U]`` and every dataset at
symmetric (or insert-delete) distance ``<= 2`` of the same size (one record changed, under a
symbolic permutation for the symmetric distance), the model's outputs are not NaN, no sum
overflows, and ``|mean(x) - mean(x')| <= map(2)``.  In the reduced-precision format ``f8``
(FP(4, 4), where the sum, the clamp and the product all round), at ``n = 3`` and ``n = 4``,
with ``sigma`` the summation lemma's map at that precision (the summation model's
``reduced_precision_map``, rounded up).  f32 at ``n = 3`` exceeds the time budget (the sum
alone does, see the summation model) and is not run.
"""

from __future__ import annotations

from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import FORMATS, float_exact, float_sort, float_value, within_float

__all__ = ["mean_of_total", "mean_map", "mean_instance", "obligations", "MODELLED"]

#: (format, n, bounds) per obligation.
CASES = [("f8", 3, (-1.0, 1.0)), ("f8", 4, (-1.0, 1.0)), ("f8", 3, (0.0, 2.0))]
_SUM = "make_sized_bounded_float_checked_sum"


def _round(value: Fraction, sort, mode) -> Fraction:
    number = z3.simplify(
        z3.fpRealToFP(mode, z3.RealVal(f"{value.numerator}/{value.denominator}"), sort)
    )
    if number.isInf():
        raise OverflowError(f"{value} is beyond the format")
    return float_exact(number)


def ulp_of(value: Fraction, sort) -> Fraction:
    """``2^(max(e, emin) - p + 1)``, ``e = floor(log2 |value|)`` (``emin`` for 0)."""
    ebits, p = sort.ebits(), sort.sbits()
    emin = 2 - (1 << (ebits - 1))
    e = emin
    if value != 0:
        magnitude = abs(value)
        e = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
        if Fraction(2) ** e > magnitude:
            e -= 1
    return Fraction(2) ** (max(e, emin) - p + 1)


def constants(n: int, bounds, sort):
    """``(c, l, h, ulp(w))`` as the code computes them, in ``sort``."""
    lower, upper = (Fraction(b) for b in bounds)
    c = _round(Fraction(1, n), sort, z3.RNE())
    low = _round(n * lower, sort, z3.RTN())
    high = _round(n * upper, sort, z3.RTP())
    w = _round(max(abs(low), high) * c, sort, z3.RTP())
    return c, low, high, ulp_of(w, sort)


def mean_map(n: int, bounds, sum_map: Fraction, sort) -> Fraction:
    """The code's mean map for the sum map value ``sum_map``, in ``sort``."""
    c, _, _, rounding = constants(n, bounds, sort)
    scaled = _round(c * Fraction(sum_map), sort, z3.RTP())
    return _round(scaled + rounding, sort, z3.RTP())


def _fp(value: Fraction, sort):
    return z3.simplify(
        z3.fpRealToFP(z3.RNE(), z3.RealVal(f"{value.numerator}/{value.denominator}"), sort)
    )


def mean_of_total(total, n: int, bounds, sort):
    """The code's ``function`` applied to the float ``total`` (a z3 float of ``sort``)."""
    c, low, high, _ = constants(n, bounds, sort)
    lo, hi = _fp(low, sort), _fp(high, sort)
    clamped = z3.If(z3.fpLT(total, lo), lo, z3.If(z3.fpGT(total, hi), hi, total))
    product = z3.fpMul(z3.RNE(), clamped, _fp(c, sort))
    # the code rounds the exact rational product: an exact zero is +0.0 (a negative product
    # that rounds to zero keeps its sign, as in IEEE)
    return z3.If(z3.fpIsZero(clamped), z3.fpPlusZero(sort), product)


def mean_instance(fmt: str, n: int, bounds, d_in: int = 2, map_scale=Fraction(1)):
    """One obligation; ``map_scale < 1`` shrinks the map (a deliberately wrong map)."""
    from certdp.transformations._summation import smt_model as sums

    sort = float_sort(fmt)
    sum_map = sums.reduced_precision_map(_SUM, "Pairwise", fmt, n, bounds, d_in)
    sum_map = float_exact(sums.float_round_up(sum_map, sort))
    stated = mean_map(n, bounds, sum_map, sort) * map_scale
    bound = sums.float_round_up(stated, sort)

    def model(terms):
        total = sums.pairwise_tree(terms, sort)
        mean = mean_of_total(total, n, bounds, sort)
        return mean, z3.Or(z3.fpIsInf(total), z3.fpIsNaN(total), z3.fpIsNaN(mean))

    lo, hi = float_value(bounds[0], sort), float_value(bounds[1], sort)
    obligation = sums._sum_obligation(
        "make_mean", None, model,
        element_of=lambda label: z3.FP(label, sort),
        inside=lambda s: z3.And(z3.fpLEQ(lo, s), z3.fpLEQ(s, hi)),
        within=within_float,
        decode_record=sums._decode_float,
        size=n, N=n, d_in=d_in, metric="symmetric", order_invariant=False,
        claim=(
            f"Pairwise<{fmt}> mean bounds={bounds} size={n} d_in={d_in} symmetric: "
            f"|mean(x) - mean(x')| <= map = {float(stated)!r}"
            + ("" if map_scale == 1 else f" (map scaled by {map_scale}: deliberately wrong)")
        ),
        fmt=fmt, bound=bound,
    )  # fmt: skip
    return obligation


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_mean" not in names:
        return []
    assert all(fmt in FORMATS for fmt, _, _ in CASES)
    return [mean_instance(fmt, n, bounds) for fmt, n, bounds in CASES]


MODELLED = {
    "make_mean": [
        "transformations/mean/make_mean.py",
        "transformations/sum/make_sum.py",
        "transformations/_summation/smt_model.py",
        "transformations/_summation/float_summation.py",
        "numeric/floats.py",
    ]
}
