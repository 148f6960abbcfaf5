"""SMT model of ``make_mean`` and its bounded theorem, bound to the real constructor.

``make_mean`` is ``summed >> scaled`` (make_mean.py, line ``chain``): the sum that ``make_sum``
picks, then ``function`` (clamp the total to ``[l, h]``, multiply exactly by ``c``, round to
nearest).  By the chain's map (``second.map(first.map(d_in))``) and the sum's theorem (required:
``REQUIRES``, proved by the summation model), two neighbouring datasets give totals ``t, t'`` with
``|t - t'| <= S = summed.map(d_in)``; the obligation is the rest of the theorem.

Obligations (``code``), one per instance (format f32 or f64, size ``n``, bounds, input metric),
with one case per ``d_in``: the real ``make_mean`` is built, its parts are read from the built
chain (``built.components``), ``S`` is the real sum's map and ``M = built.map(d_in)`` the real
mean's map; ``l``, ``h`` and ``c`` are read from the code's ``function`` (its closure).  A case is
satisfiable exactly when there are reals ``t, t'`` with ``|t - t'| <= S`` and reals ``r, r'``
within ``H`` of ``c clamp(t)`` and ``c clamp(t')`` with ``|r - r'| > M``, in exact rational
arithmetic.  ``H = ulp_T(W) / 2`` with ``W = c max(|l|, |h|)`` exactly and ``ulp_T`` the spacing
of ``T`` in the binade of ``W`` (:func:`ulp_of`, the model's own): rounding to nearest moves a
real of magnitude at most ``W`` by at most ``H`` (the definition of rounding to nearest).  This
is the exact-real abstraction of the rounded product; ``tests/prove/test_mean_model.py`` checks
on concrete data that the code's output is the IEEE product rounded to nearest of the clamped
total, bit for bit (:func:`mean_of_total`, with the code's own constants), and within ``H`` of
the exact product.
"""

from __future__ import annotations

import inspect
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import FORMATS
from certdp.contracts.smt_code import Scope, exact
from certdp.core.errors import DPError

__all__ = [
    "ulp_of",
    "code_constants",
    "mean_of_total",
    "built_mean",
    "mean_instance",
    "obligations",
    "MODELLED",
    "REQUIRES",
    "SCOPE",
]


def _fp(value: Fraction, sort):
    return z3.simplify(
        z3.fpRealToFP(z3.RNE(), z3.RealVal(f"{value.numerator}/{value.denominator}"), sort)
    )


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


def code_constants(built) -> tuple[Fraction, Fraction, Fraction]:
    """``(l, h, c)`` as the real constructor computed them: read from the closure of the
    ``function`` of the chain's second part."""
    _, scaled = built.components
    names = inspect.getclosurevars(scaled.function).nonlocals
    return tuple(Fraction(names[key]) for key in ("sum_lower", "sum_upper", "reciprocal"))


def mean_of_total(total, constants, sort):
    """The code's ``function`` applied to the float ``total`` (a z3 float of ``sort``), with
    ``constants = (l, h, c)``: the clamp, then the product rounded to nearest (ties to even);
    the code rounds the exact rational product, so an exact zero is ``+0.0``."""
    low, high, c = constants
    lo, hi = _fp(low, sort), _fp(high, sort)
    clamped = z3.If(z3.fpLT(total, lo), lo, z3.If(z3.fpGT(total, hi), hi, total))
    product = z3.fpMul(z3.RNE(), clamped, _fp(c, sort))
    return z3.If(z3.fpIsZero(clamped), z3.fpPlusZero(sort), product)


def half_ulp(constants, fmt: str) -> Fraction:
    """``H``: half the spacing of ``fmt`` in the binade of ``W = c max(|l|, |h|)``."""
    low, high, c = constants
    return ulp_of(c * max(abs(low), abs(high)), z3.FPSort(*FORMATS[fmt])) / 2


def built_mean(fmt: str, n: int, bounds, metric: str):
    """The real ``make_mean`` at these parameters."""
    import numpy as np

    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_mean import make_mean

    cast = np.float32 if fmt == "f32" else float
    domain = vector_domain(atom_domain(bounds=(cast(bounds[0]), cast(bounds[1])), T=fmt), size=n)
    space = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    return make_mean(domain, space)


#: (format, n, bounds) per instance; every instance under both input metrics.
CASES = [
    (fmt, n, bounds)
    for fmt in ("f32", "f64")
    for n, bounds in [
        (1, (-1.0, 1.0)),
        (3, (-1.0, 1.0)),
        (4, (0.0, 2.0)),
        (3, (0.0, 100.0)),
        (7, (-3.0, 1e6)),
        (1000, (-1.0, 1.0)),
        (10**6, (0.0, 1e-30)),
        (5, (-1e30, 1e30)),
    ]
] + [("f64", 3, (5e-324, 1e-300)), ("f64", 2, (-1e300, 1e300)), ("f32", 3, (1e-45, 1e38))]
# fmt: skip
D_INS = (1, 2, 4, 10)


def mean_instance(fmt: str, n: int, bounds, metric: str = "symmetric", built=None):
    """The obligation of one instance (``built`` replaces the real constructor: tests)."""
    built = built or built_mean(fmt, n, bounds, metric)
    summed, _ = built.components
    constants = code_constants(built)
    low, high, c = constants
    H = exact(half_ulp(constants, fmt))

    def clamp(v):
        return z3.If(v < exact(low), exact(low), z3.If(v > exact(high), exact(high), v))

    def violation():
        cases = []
        t, tp, r, rp = z3.Reals("t t_prime r r_prime")
        for d_in in D_INS:
            try:
                S, M = summed.map(d_in), built.map(d_in)
            except DPError:
                continue  # the map refuses this d_in (its product leaves the format): no claim
            x, xp = exact(c) * clamp(t), exact(c) * clamp(tp)
            formula = z3.And(
                t - tp <= exact(S), tp - t <= exact(S),
                r - x <= H, x - r <= H, rp - xp <= H, xp - rp <= H,
                z3.Or(r - rp > exact(M), rp - r > exact(M)),
            )  # fmt: skip

            def decode(m, d_in=d_in, S=S, M=M):
                return {"d_in": d_in, "sum map": repr(S), "mean map": repr(M),
                        "t": str(m.eval(t)), "t'": str(m.eval(tp)),
                        "r": str(m.eval(r)), "r'": str(m.eval(rp))}  # fmt: skip

            cases.append((formula, decode))
        return cases

    return Obligation(
        constructor="make_mean",
        claim=(
            f"real make_mean {fmt} size={n} bounds={bounds} {metric} d_in in {D_INS}: totals "
            f"within the real sum's map, clamped and multiplied by the code's c, each rounded "
            f"within half an ulp of {fmt}, stay within the real mean's map (exact reals)"
        ),
        format=fmt, size=n, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_mean" not in names:
        return []
    return [
        mean_instance(fmt, n, bounds, metric)
        for fmt, n, bounds in CASES
        for metric in ("symmetric", "insert_delete")
    ]


MODELLED = {
    "make_mean": [
        "transformations/mean/make_mean.py",
        "transformations/sum/make_sum.py",
        "numeric/floats.py",
    ]
}

#: The theorem of the sum ``make_mean`` chains first (``|t - t'| <= S``).
REQUIRES = {"make_mean": ["make_sum"]}

SCOPE = {
    "make_mean": Scope(
        formats=("f32", "f64"),
        sizes=tuple(sorted({n for _, n, _ in CASES})),
        bound_to_code="the real make_mean is built at each instance; the sum's map and the "
        "mean's map are called on each d_in, and the clamp bounds and 1/n are read from the "
        "built function",
        instances=f"{len(CASES)} (format, size, bounds) under the symmetric and insert-delete "
        f"distances, d_in in {D_INS}",
        abstractions=(
            "the sum's outputs are any reals within the real sum's map (the sum's own theorem, "
            "required: make_sum)",
            "the product rounded to nearest is any real within half an ulp of the format in "
            "the binade of c max(|l|, |h|) (checked against the code on concrete data by a test)",
        ),
        assumed=("the chain's map is second.map(first.map(d_in)) (core/transformation.tex)",),
    )
}
