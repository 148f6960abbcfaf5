"""SMT model of the Context's budget split (context.tex, Lemma split), and the bounded checks
that the real ``split_budget`` keeps the composed total within the budget.

Obligations bound to the code (``code``): at every non-negative finite budget of
:data:`certdp.contracts.smt_code.F64_SAMPLES` and every weight list of :data:`WEIGHTS` (even
splits over 1 to 64 parts, and uneven float and integer weights, subnormal ones included), the
real ``split_budget`` is called, for a number and for a pair; the obligation is satisfiable
exactly when a returned share exceeds its exact share ``c w_i / W`` (compared as exact reals) or
the exact sum of the shares exceeds the budget -- then the compositor's total, that sum rounded
up once into f64, would exceed the budget (``c`` is an f64).  ``model``: at the even splits,
each share equals the model's ``c / n`` divided in IEEE's ``roundTowardNegative`` bit for bit.

Obligations on the model, for every f64 budget ``c >= 0`` (``+inf`` and NaN excluded: the code
refuses them) and ``n`` in :data:`PARTS`: ``n`` times the share, computed exactly in a wider
format, is at most ``c``; and the share is the largest such f64 (no f64 above it, times ``n``,
is at most ``c``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from certdp.combinators._support.smt_exact import to_exact
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import F64_SAMPLES, Scope, exact

__all__ = ["WEIGHTS", "PARTS", "code_shares", "share_model", "obligations", "MODELLED", "SCOPE"]

#: Weight lists at which the real split is called.
WEIGHTS = [
    *([1] * n for n in (1, 2, 3, 5, 7, 10, 13, 64)),
    [1, 2],
    [0.3, 0.7],
    [1, 1, 2],
    [5, 1, 1],
    [1, 2, 3, 4],
    [0, 1, 0],
    [1e-300, 1.0],
    [5e-324, 1.0, 3.0],
    [1e300, 1e-300],
    [0.1] * 10,
]
#: Numbers of equal parts of the model's check over every f64 budget.
PARTS = (3, 10, 13)

_BUDGETS = [c for c in F64_SAMPLES if math.isfinite(c)]


def code_shares(budget, weights):
    """The real ``split_budget(budget, weights)``."""
    from .split import split_budget

    return split_budget(budget, weights)


def share_model(budget, n: int):
    """The model's share of ``budget`` (a z3 Float64) over ``n`` equal parts."""
    return z3.fpDiv(z3.RTN(), budget, z3.FPVal(float(n), z3.Float64()))


def _too_large(budget, weights, shares):
    total = sum(Fraction(w) for w in weights)
    bad = [
        exact(share) > exact(Fraction(budget) * Fraction(w) / total)
        for share, w in zip(shares, weights, strict=True)
    ]
    bad.append(sum((exact(s) for s in shares), z3.RealVal(0)) > exact(budget))
    return z3.Or(*bad)


def code_instance(kind: str = "code", shares_of=None) -> Obligation:
    """``kind="code"``: the real shares never exceed the exact shares nor sum above the budget;
    ``kind="model"``: at the even splits they equal the model's bit for bit.  ``shares_of``
    replaces :func:`code_shares` (for the tests)."""
    compute = shares_of or code_shares

    def violation():
        cases = []
        for budget in _BUDGETS:
            for weights in WEIGHTS:
                example = {"budget": repr(budget), "weights": repr(weights)}
                if kind == "code":
                    shares = compute(budget, weights)
                    pairs = compute((budget, budget), weights)
                    example["shares"] = repr(shares)
                    formula = z3.Or(
                        _too_large(budget, weights, shares),
                        _too_large(budget, weights, [p[0] for p in pairs]),
                        _too_large(budget, weights, [p[1] for p in pairs]),
                    )
                elif len(set(weights)) == 1 and weights[0] == 1:
                    shares = compute(budget, weights)
                    example["shares"] = repr(shares)
                    model = share_model(z3.FPVal(budget, z3.Float64()), len(weights))
                    formula = z3.Or(*[z3.Not(model == z3.FPVal(s, z3.Float64())) for s in shares])
                else:
                    continue
                cases.append((formula, lambda m, e=example: e))
        return cases

    what = (
        "no share exceeds its exact share c w_i / W and the exact sum of the shares (so the "
        "compositor's total, rounded up once) is at most the budget, for a number and a pair"
        if kind == "code"
        else "at even splits each share equals c / n rounded toward -inf, bit for bit"
    )
    return Obligation(
        constructor="context",
        claim=f"real split_budget at {len(_BUDGETS)} sampled f64 budgets (0, subnormal, ..., "
        f"MAX) and {len(WEIGHTS)} weight lists: {what}",
        format="f64", size=max(len(w) for w in WEIGHTS), violation=violation,
    )  # fmt: skip


def model_instance(n: int, rounding=None) -> Obligation:
    """For every finite f64 ``c >= 0``: ``n * share <= c`` exactly, and no f64 above the share
    times ``n`` is at most ``c`` (the share is the largest).  Pure IEEE: Bitwuzla."""
    f64 = z3.Float64()
    budget = z3.FP("budget", f64)
    bigger = z3.FP("bigger", f64)  # an f64 above the share that would still fit
    wide = z3.Float128()  # an f64 times n <= 16 needs 57 significand bits: exact here
    times = z3.FPVal(float(n), wide)

    def violation():
        share = z3.fpDiv(
            z3.RTN() if rounding is None else rounding, budget, z3.FPVal(float(n), f64)
        )
        wide_budget = to_exact(budget, wide)
        product = z3.fpMul(z3.RNE(), to_exact(share, wide), times)  # exact in ``wide``
        fits = z3.fpMul(z3.RNE(), to_exact(bigger, wide), times)  # exact as well
        valid = z3.And(z3.Not(z3.fpIsNaN(budget)), z3.Not(z3.fpIsInf(budget)), z3.fpGEQ(budget, 0))
        over = z3.fpGT(product, wide_budget)
        not_largest = z3.And(
            z3.Not(z3.fpIsNaN(bigger)), z3.Not(z3.fpIsInf(bigger)),
            z3.fpGT(bigger, share), z3.fpLEQ(fits, wide_budget),
        )  # fmt: skip

        def decode(values):  # Bitwuzla's model: {name: value}
            return {"budget": str(values.get("budget")), "bigger": str(values.get("bigger"))}

        return [(z3.And(valid, z3.Or(over, not_largest)), decode)]

    label = (
        "rounded toward -inf" if rounding is None else f"rounded {rounding} (deliberately wrong)"
    )
    return Obligation(
        constructor="context",
        claim=f"every finite f64 budget c >= 0 split into {n} equal shares c / n {label}: "
        f"{n} shares sum (exactly) to at most c, and the share is the largest such f64",
        format="f64", size=n, violation=violation, solver="bitwuzla",
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "context" not in names:
        return []
    return [code_instance("code"), code_instance("model")] + [model_instance(n) for n in PARTS]


SCOPE = {
    "context": Scope(
        formats=("f64",),
        bound_to_code="the real split_budget is called at each instance (a number and a pair "
        "budget) and its shares are compared as exact reals with the exact shares and the budget",
        instances=f"{len(_BUDGETS)} finite f64 budgets spanning the format (0, subnormals, 1, "
        f"MAX, seeded draws) times {len(WEIGHTS)} weight lists (even splits over 1 to 64 parts, "
        "uneven float and integer weights, subnormal and huge weights)",
        bit_precise=(
            "at the instances: each real share and the exact sum of the shares against the exact "
            "budget; at the even splits the real shares against the model bit for bit",
            "the model for every finite f64 budget and 3, 10 and 13 equal parts: sum at most the "
            "budget, each share the largest such f64",
        ),
        assumed=(
            "the compositor composes the shares by their exact sum rounded up once (its proof)",
            "uneven weights are checked only at the instances (the exact rational path of the "
            "code is the one proved in context.tex, Lemma split)",
        ),
    )
}


MODELLED = {
    "context": [
        "combinators/_context/split.py",
        "combinators/_support/smt_exact.py",
        "numeric/floats.py",
    ]
}
