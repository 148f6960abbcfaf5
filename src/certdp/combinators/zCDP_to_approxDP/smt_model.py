"""SMT model of the arithmetic of ``make_zCDP_to_approxDP``'s map (``cdp_delta`` after the
order ``a`` is chosen), and the bounded check that it only rounds toward a larger delta.

What the map computes (cdp_delta.py, lines ``ar-e`` to ``at-most-one``), for an order ``a``,
``rho > 0`` and ``epsilon >= 0``::

    ar_e  = RU(RU(a * rho) - epsilon)                      >= a rho - epsilon
    a_1   = RD(a - 1) if ar_e < 0 else RU(a - 1)
    t1    = RU(a_1 * ar_e)                                 >= (a - 1)(a rho - epsilon)
    q     = RD(1 / a);  L = inf_ln_1p(-q) >= ln(1 - q) >= ln(1 - 1/a)
    t2    = RU(a * L)                                      >= a ln(1 - 1/a)
    E     = inf_exp(RU(t1 + t2))                           >= exp(t1 + t2)
    delta = min(RU(E / RD(a - 1)), 1)                      >= E / (a - 1)

The transcendental functions are not SMT terms: ``L`` and ``E`` are free floats, and only what
the proof uses of them is assumed (``L`` is a float at least ``ln(1 - q)``, ``E >= exp(s)``
for ``s = RU(t1 + t2)``; both are what ``inf_ln_1p`` and ``inf_exp`` guarantee, proved in
cdp_delta.tex).  An overflow (``+inf``) makes the code return ``1.0``, a valid delta; the
obligation covers the path where nothing overflows.

Obligation (every ``a >= 1.01``, ``rho > 0``, ``epsilon >= 0``, ``L``, ``E > 0`` finite floats
of the format), one case per step: ``q <= 1/a``; ``ar_e >= a rho - epsilon``; ``a_1 >= 0``
on the side of ``a - 1`` that the sign of ``ar_e`` favours; ``t1 >= a_1 ar_e`` (whence, by the
signs, ``t1 >= (a - 1)(a rho - epsilon)``); ``t2 >= a L``;
``s >= t1 + t2``; ``0 < RD(a - 1) <= a - 1``; ``RU(E / RD(a - 1)) >= E / (a - 1)``, all
compared exactly.  With the monotonicity of ``ln`` and ``exp`` these give ``delta >=
exp((a - 1)(a rho - epsilon) + a ln(1 - 1/a)) / (a - 1)``, the bound of Canonne, Kamath and
Steinke at ``a``.  Format: f8 = FP(4, 4) (the code's arithmetic is f64; the same operations in a
reduced format, where each rounds often).  ``tests/prove/test_combinator_models.py`` checks
that the model, fed the code's own ``inf_ln_1p`` and ``inf_exp``, equals ``cdp_delta`` bit for
bit in f64.
"""

from __future__ import annotations

import z3

from certdp.combinators._support.smt_exact import to_exact
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import float_sort

__all__ = ["delta_at_order", "delta_instance", "obligations", "MODELLED"]

_FORMATS = ["f8"]


def delta_at_order(a, rho, epsilon, ln_up, exp_up, sub_mode=None):
    """The code's steps from ``ar-e`` to ``delta`` (before ``min(., 1)``): a dict of the
    intermediate z3 floats.  ``ln_up(y)``/``exp_up(x)`` stand for ``inf_ln_1p``/``inf_exp``;
    ``sub_mode`` replaces the rounding of ``a - 1`` in the divisor (a deliberately wrong model)."""
    up, down = z3.RTP(), z3.RTN()
    sort = a.sort()
    one = z3.FPVal(1.0, sort)
    ar_e = z3.fpSub(up, z3.fpMul(up, a, rho), epsilon)
    negative = z3.fpLT(ar_e, z3.FPVal(0.0, sort))
    a_1 = z3.If(negative, z3.fpSub(down, a, one), z3.fpSub(up, a, one))
    t1 = z3.fpMul(up, a_1, ar_e)
    q = z3.fpDiv(down, one, a)
    L = ln_up(z3.fpNeg(q))
    t2 = z3.fpMul(up, a, L)
    s = z3.fpAdd(up, t1, t2)
    E = exp_up(s)
    divisor = z3.fpSub(down if sub_mode is None else sub_mode, a, one)
    delta = z3.fpDiv(up, E, divisor)
    return {"ar_e": ar_e, "a_1": a_1, "t1": t1, "q": q, "L": L, "t2": t2, "s": s, "E": E,
            "divisor": divisor, "delta": delta}  # fmt: skip


def delta_instance(fmt: str, sub_mode=None) -> Obligation:
    sort = float_sort(fmt)
    a, rho, epsilon = (z3.FP(n, sort) for n in ("a", "rho", "epsilon"))
    L, E = z3.FP("L", sort), z3.FP("E", sort)
    wide = z3.FPSort(sort.ebits() + 4, 4 * sort.sbits() + 2 * (1 << sort.ebits()))

    def violation():
        steps = delta_at_order(a, rho, epsilon, lambda y: L, lambda x: E, sub_mode)
        x = {k: to_exact(v, wide) for k, v in steps.items()}
        A, R, P = (to_exact(v, wide) for v in (a, rho, epsilon))
        one = z3.FPVal(1.0, wide)
        exact = z3.RNE()  # exact in ``wide``: every operand has at most a few dozen bits
        a_minus_1 = z3.fpSub(exact, A, one)
        finite = z3.And(*[z3.fpIsNormal(v) | z3.fpIsZero(v) | z3.fpIsSubnormal(v)
                          for v in steps.values()])  # fmt: skip
        domain = z3.And(
            z3.fpGEQ(a, z3.FPVal(1.01, sort)), z3.fpGT(rho, z3.FPVal(0.0, sort)),
            z3.fpGEQ(epsilon, z3.FPVal(0.0, sort)), z3.Not(z3.fpIsNegative(epsilon)),
            z3.fpGT(E, z3.FPVal(0.0, sort)),
            *[z3.Not(z3.Or(z3.fpIsInf(v), z3.fpIsNaN(v))) for v in (a, rho, epsilon, L, E)],
        )  # fmt: skip
        properties = {
            "q <= 1/a": z3.fpGT(z3.fpMul(exact, x["q"], A), one),
            # t1 >= (a-1)(a rho - epsilon) follows from the next three by the signs:
            # a_1 ar_e >= (a-1) ar_e (a_1 on the side of a-1 that ar_e's sign favours)
            # >= (a-1)(a rho - epsilon) (a - 1 >= 0)
            "ar_e >= a rho - epsilon": z3.fpLT(
                x["ar_e"], z3.fpSub(exact, z3.fpMul(exact, A, R), P)
            ),
            "a_1 on the enlarging side of a-1, a_1 >= 0": z3.Or(
                z3.fpLT(x["a_1"], z3.FPVal(0.0, wide)),
                z3.And(z3.fpLT(x["ar_e"], z3.FPVal(0.0, wide)), z3.fpGT(x["a_1"], a_minus_1)),
                z3.And(z3.fpGEQ(x["ar_e"], z3.FPVal(0.0, wide)), z3.fpLT(x["a_1"], a_minus_1)),
            ),
            "t1 >= a_1 ar_e": z3.fpLT(x["t1"], z3.fpMul(exact, x["a_1"], x["ar_e"])),
            "t2 >= a L": z3.fpLT(x["t2"], z3.fpMul(exact, A, x["L"])),
            "s >= t1 + t2": z3.fpLT(x["s"], z3.fpAdd(exact, x["t1"], x["t2"])),
            "0 < RD(a-1) <= a-1": z3.Or(
                z3.Not(z3.fpGT(x["divisor"], z3.FPVal(0.0, wide))),
                z3.fpGT(x["divisor"], a_minus_1),
            ),
            "delta >= E/(a-1)": z3.fpLT(z3.fpMul(exact, x["delta"], a_minus_1), x["E"]),
        }

        def decode(m):
            return {k: str(m.eval(v, True)) for k, v in
                    {"a": a, "rho": rho, "epsilon": epsilon, "L": L, "E": E}.items()}  # fmt: skip

        return [
            (z3.And(domain, finite, broken), lambda m, p=name: {"property": p, **decode(m)})
            for name, broken in properties.items()
        ]

    return Obligation(
        constructor="make_zCDP_to_approxDP",
        claim=(
            f"cdp_delta's arithmetic after the order is chosen, in {fmt}: for every a >= 1.01, "
            "rho > 0, epsilon >= 0, L, E > 0 with no overflow: q <= 1/a, ar_e >= a rho - epsilon, "
            "a_1 on the enlarging side, t1 >= a_1 ar_e, t2 >= a L, s >= t1 + t2, "
            "0 < RD(a-1) <= a-1, delta >= E/(a-1), exactly"
            + ("" if sub_mode is None else f" (divisor rounded {sub_mode}: deliberately wrong)")
        ),
        format=fmt,
        size=1,
        violation=violation,
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_zCDP_to_approxDP" not in names:
        return []
    return [delta_instance(fmt) for fmt in _FORMATS]


MODELLED = {
    "make_zCDP_to_approxDP": [
        "combinators/zCDP_to_approxDP/make_zCDP_to_approxDP.py",
        "combinators/_conversion/cdp_delta.py",
        "combinators/_support/smt_exact.py",
        "numeric/floats.py",
    ]
}
