"""SMT model of ``make_composition``'s privacy map, and the bounded check that its arithmetic is
conservative.

Model (``privacy_map`` in make_composition.py): the inner losses ``l_1 .. l_k`` (floats ``>= 0``,
``+inf`` allowed); if one is ``+inf`` the result is ``+inf``; otherwise the exact sum (a
``Fraction``) cast up into f64 with ``inf_cast``, ``+inf`` when it overflows.  In SMT: the losses
converted into a format where their sum is exact (:mod:`..._support.smt_exact`), added there,
and rounded once toward ``+inf`` into the output format (IEEE's ``roundTowardPositive``, which is
``inf_cast`` on finite values and gives ``+inf`` past the largest finite value, as the code's
overflow branch does).  ``tests/prove/test_combinator_models.py`` checks the model against the
code bit for bit on random f64 losses.

Obligations: for every pair of losses that are f32 values (every non-negative one, ``+inf``
included), the f64 total (the code's own output format, on the f32-valued subset of its
inputs) is not NaN and at least the exact real sum; and for every pair and every triple of f16
losses, the same arithmetic in f16 (a reduced format, where additions round often): not NaN, at
least the exact sum, and the least value of f16 that is (the code rounds up, not further).
Triples in f32 -> f64 take over a minute of solver time and are left out.  Together with the composition theorem
(make_composition.tex: the exact sum of the losses is a valid loss), this covers the map's
arithmetic; the theorem itself (a property of distributions) is not an SMT statement.
"""

from __future__ import annotations

import z3

from certdp.combinators._support.smt_exact import common_sort, exact_sort, to_exact
from certdp.contracts.obligation import Obligation

__all__ = ["composed_loss", "composition_instance", "obligations", "MODELLED"]

#: (input format, output format, number of losses) per obligation.
CASES = [
    ((8, 24), (11, 53), 2),
    ((5, 11), (5, 11), 2),
    ((5, 11), (5, 11), 3),
]


def _name(fmt) -> str:
    return {(11, 53): "f64", (8, 24): "f32", (5, 11): "f16"}[fmt]


def composed_loss(losses, out_sort, rounding=None):
    """The code's total of ``losses`` (z3 floats of one sort), in ``out_sort``."""
    sort = losses[0].sort()
    wide = exact_sort(sort, len(losses))
    exact = to_exact(losses[0], wide)
    for loss in losses[1:]:
        exact = z3.fpAdd(z3.RNE(), exact, to_exact(loss, wide))  # exact in ``wide``
    infinite = z3.Or(*[z3.fpIsInf(loss) for loss in losses])
    rounded = z3.fpToFP(z3.RTP() if rounding is None else rounding, exact, out_sort)
    return z3.If(infinite, z3.fpPlusInfinity(out_sort), rounded), exact


def composition_instance(in_fmt, out_fmt, k, rounding=None, least=False) -> Obligation:
    sort, out_sort = z3.FPSort(*in_fmt), z3.FPSort(*out_fmt)
    losses = [z3.FP(f"loss{i}", sort) for i in range(k)]

    def violation():
        total, exact = composed_loss(losses, out_sort, rounding)
        wide = common_sort(exact.sort(), out_sort)  # holds both exactly
        exact = to_exact(exact, wide)
        back = z3.fpToFP(z3.RNE(), total, wide)  # exact: the wide sort holds every output
        domain = [z3.And(z3.Not(z3.fpIsNaN(x)), z3.Not(z3.fpIsNegative(x))) for x in losses]
        finite = z3.And(*[z3.Not(z3.fpIsInf(x)) for x in losses])
        # the next value of out_sort below the total, to show the total is the least one above
        previous = z3.fpToFP(z3.RNE(), _next_down(total, out_sort), wide)
        bad = z3.Or(z3.fpIsNaN(total), z3.And(finite, z3.fpLT(back, exact)))
        if least:
            bad = z3.Or(bad, z3.And(finite, z3.Not(z3.fpIsZero(total)), z3.fpGEQ(previous, exact)))

        def decode(m):
            return {"losses": [str(m.eval(x, True)) for x in losses], "total": str(m.eval(total))}

        return [(z3.And(*domain, bad), decode)]

    label = "rounded up" if rounding is None else f"rounded {rounding} (deliberately wrong)"
    return Obligation(
        constructor="make_composition",
        claim=(
            f"{k} losses in {_name(in_fmt)} (every value >= 0, +inf included), exact sum {label}"
            f" into {_name(out_fmt)}: not NaN, >= the exact sum"
            + (", and the least such value" if least else "")
        ),
        format=f"{_name(in_fmt)}->{_name(out_fmt)}",
        size=k,
        violation=violation,
    )


def _next_down(value, sort):
    """The largest value of ``sort`` below the finite non-zero ``value`` (as bits: the
    ordered integer encoding of IEEE floats)."""
    width = sort.ebits() + sort.sbits()
    bits = z3.fpToIEEEBV(value)
    positive = z3.Extract(width - 1, width - 1, bits) == 0
    stepped = z3.If(positive, bits - 1, bits + 1)
    return z3.fpBVToFP(stepped, sort)


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_composition" not in names:
        return []
    return [composition_instance(i, o, k, least=i == o) for i, o, k in CASES]


MODELLED = {
    "make_composition": [
        "combinators/composition/make_composition.py",
        "combinators/_support/smt_exact.py",
        "numeric/floats.py",
    ]
}
