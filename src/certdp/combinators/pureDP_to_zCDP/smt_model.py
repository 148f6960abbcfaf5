"""SMT model of ``make_pureDP_to_zCDP``'s privacy map, and the bounded check that its
arithmetic is conservative.

Model (``privacy_map`` in make_pureDP_to_zCDP.py): for the inner epsilon (a float ``>= 0``,
``+inf`` allowed), ``+inf`` if it is infinite, else ``inf_cast(epsilon^2 / 2, "f64")``: the exact
rational rounded up once, ``+inf`` when it overflows.  In SMT: ``epsilon`` converted into a
format where its square and half of it are exact (:mod:`..._support.smt_exact`), squared and
halved there, then rounded toward ``+inf`` into the output format (``roundTowardPositive``
is ``inf_cast`` on finite values and ``+inf`` past the largest finite one, the code's overflow
branch).  ``tests/prove/test_combinator_models.py`` checks the model against the code bit for
bit on random f64 epsilons.

Obligations: for every epsilon of the input format (every non-negative value, ``+inf``
included), rho is not NaN, ``rho >= epsilon^2 / 2`` exactly, and rho is the least value of the
output format that is (rounded up once, not further).  Formats: every f32 epsilon into f64 (the
code's own output format, on the f32-valued subset of its inputs: there the square is exact in
f64 except at overflow), every f32 epsilon into f32 and every f16 epsilon into f16 (the same
arithmetic in reduced formats, where the square rounds).  Every f64 epsilon into f64 exceeds
the time budget (a 53-bit multiplier: over 120 s) and is left out.  With Bun and Steinke's
Proposition 3.3 (epsilon-DP implies epsilon^2/2-zCDP; make_pureDP_to_zCDP.tex) this covers the
map; the proposition itself is not an SMT statement.
"""

from __future__ import annotations

import z3

from certdp.combinators._support.smt_exact import common_sort, exact_sort, to_exact
from certdp.contracts.obligation import Obligation

__all__ = ["rho_of", "rho_instance", "obligations", "MODELLED"]

_NAMES = {(11, 53): "f64", (8, 24): "f32", (5, 11): "f16"}


def rho_of(epsilon, out_sort, rounding=None):
    """``(rho, exact epsilon^2 / 2)`` for a z3 float ``epsilon``."""
    wide = exact_sort(epsilon.sort(), product=True)
    e = to_exact(epsilon, wide)
    exact = z3.fpDiv(z3.RNE(), z3.fpMul(z3.RNE(), e, e), z3.FPVal(2.0, wide))
    rounded = z3.fpToFP(z3.RTP() if rounding is None else rounding, exact, out_sort)
    return z3.If(z3.fpIsInf(epsilon), z3.fpPlusInfinity(out_sort), rounded), exact


def _next_down(value, sort):
    """The largest value of ``sort`` below a positive finite ``value`` (the IEEE bits of
    positive floats are ordered as the floats)."""
    return z3.fpBVToFP(z3.fpToIEEEBV(value) - 1, sort)


def rho_instance(fmt, out_fmt=None, rounding=None) -> Obligation:
    out_fmt = out_fmt or fmt
    sort, out_sort = z3.FPSort(*fmt), z3.FPSort(*out_fmt)
    epsilon = z3.FP("epsilon", sort)

    def violation():
        rho, exact = rho_of(epsilon, out_sort, rounding)
        wide = common_sort(exact.sort(), out_sort)  # holds both exactly
        exact = to_exact(exact, wide)
        finite = z3.Not(z3.fpIsInf(epsilon))
        back = z3.fpToFP(z3.RNE(), rho, wide)
        previous = z3.fpToFP(z3.RNE(), _next_down(rho, out_sort), wide)
        bad = z3.Or(
            z3.fpIsNaN(rho),
            z3.And(finite, z3.fpLT(back, exact)),
            z3.And(finite, z3.fpIsPositive(rho), z3.Not(z3.fpIsZero(rho)),
                   z3.fpGEQ(previous, exact)),
        )  # fmt: skip
        inside = z3.And(z3.Not(z3.fpIsNaN(epsilon)), z3.Not(z3.fpIsNegative(epsilon)))

        def decode(m):
            return {"epsilon": str(m.eval(epsilon, True)), "rho": str(m.eval(rho))}

        return [(z3.And(inside, bad), decode)]

    name, out = _NAMES[fmt], _NAMES[out_fmt]
    label = "rounded up" if rounding is None else f"rounded {rounding} (deliberately wrong)"
    return Obligation(
        constructor="make_pureDP_to_zCDP",
        claim=(
            f"every epsilon of {name} (>= 0, +inf included): rho = epsilon^2/2 {label} into "
            f"{out} is not NaN, >= the exact value, and the least such value of {out}"
        ),
        format=f"{name}->{out}",
        size=1,
        violation=violation,
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_pureDP_to_zCDP" not in names:
        return []
    return [rho_instance((8, 24), (11, 53)), rho_instance((8, 24)), rho_instance((5, 11))]


MODELLED = {
    "make_pureDP_to_zCDP": [
        "combinators/pureDP_to_zCDP/make_pureDP_to_zCDP.py",
        "combinators/_support/smt_exact.py",
        "numeric/floats.py",
    ]
}
