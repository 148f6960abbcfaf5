"""SMT model of ``make_select_private_candidate``'s privacy map, bound to the code.

Obligation (``code``): for every inner epsilon of :data:`certdp.contracts.smt_code.F64_SAMPLES`
(zero, subnormals, values around 1, the overflow edge of ``2 epsilon``, the largest finite f64,
``+inf``, seeded draws over every exponent), the real constructor is built over a stub
measurement whose map is ``d_in -> epsilon * d_in`` (exact) or ``epsilon * d_in**2``, and its
map is called at every ``d_in`` of ``CONVERSION_D_INS``; the obligation is satisfiable exactly
when a value is NaN, finite for an infinite inner loss, or below twice the inner loss at that
``d_in`` (exact rationals in z3's reals).  Obligation (``model``): at ``d_in = 1`` the value
equals the model's f64 ``2 epsilon`` rounded toward ``+inf`` (``roundTowardPositive``, which
gives ``+inf`` past the largest finite value: the code's overflow branch), bit for bit.
The factor 2 itself (Lemma [law] and the privacy computation of the proof) is not an SMT
statement.
"""

from __future__ import annotations

import math

import z3

from certdp.combinators._support.conversion_smt import (
    CONVERSION_D_INS,
    LOSS_FAMILIES,
    d_in_stub_measurement,
    raised_case,
    shown_d_ins,
)
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import F64_SAMPLES, Scope, exact

__all__ = ["code_map", "code_instance", "obligations", "MODELLED", "SCOPE"]


def code_map(epsilon, d_in=1, family=None):
    """The real constructor over a stub whose map is ``family(epsilon, d_in)``, its map."""
    from certdp.core.measures import max_divergence

    from .make_select_private_candidate import make_select_private_candidate

    family = family or LOSS_FAMILIES[0][1]
    inner = d_in_stub_measurement(lambda d: family(epsilon, d), max_divergence())
    return make_select_private_candidate(inner, 0.5, 0.0).map(d_in)


def _too_small(loss, value):
    if math.isnan(value):
        return z3.BoolVal(True)
    if loss == math.inf:
        return z3.BoolVal(not math.isinf(value))
    if math.isinf(value):
        return z3.BoolVal(False)
    return exact(value) < 2 * exact(loss)


def _differs(epsilon, value):
    f64 = z3.Float64()
    model = z3.fpMul(z3.RTP(), z3.FPVal(2.0, f64), z3.FPVal(epsilon, f64))
    return z3.Not(model == z3.FPVal(value, f64))


def code_instance(kind: str = "code", map_of=None) -> Obligation:
    """``map_of(epsilon, d_in, family)`` replaces :func:`code_map` (for the tests)."""
    map_of = map_of or code_map

    def violation():
        cases = []
        families = LOSS_FAMILIES if kind == "code" else LOSS_FAMILIES[:1]
        d_ins = CONVERSION_D_INS if kind == "code" else (1,)
        for shown, family in families:
            for d_in in d_ins:
                for epsilon in F64_SAMPLES:
                    where = {"inner map": f"epsilon {shown}", "epsilon": repr(epsilon),
                             "d_in": repr(d_in)}  # fmt: skip
                    try:
                        value = map_of(epsilon, d_in, family)
                    except Exception as error:  # a map that raises here is refuted
                        cases.append(raised_case(error, where))
                        continue
                    example = {**where, "code map": repr(value)}
                    check = (
                        _too_small(family(epsilon, d_in), value)
                        if kind == "code"
                        else _differs(epsilon, value)
                    )
                    cases.append((check, lambda m, e=example: e))
        return cases

    what = (
        f"at every d_in of {shown_d_ins()} (inner loss epsilon * d_in or epsilon * d_in**2): "
        "not NaN, +inf for an infinite loss, else >= 2 * loss exactly"
        if kind == "code"
        else "at d_in = 1 equals 2 * epsilon rounded toward +inf in f64, bit for bit"
    )
    return Obligation(
        constructor="make_select_private_candidate",
        claim=f"real make_select_private_candidate over stub inner maps at "
        f"{len(F64_SAMPLES)} f64 epsilons (0, subnormal, ..., MAX, +inf): its map {what}",
        format="f64",
        size=1,
        violation=violation,
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_select_private_candidate" not in names:
        return []
    return [code_instance("code"), code_instance("model")]


SCOPE = {
    "make_select_private_candidate": Scope(
        formats=("f64",),
        bound_to_code="the real make_select_private_candidate is built over stub inner "
        "measurements whose maps are d_in -> epsilon * d_in and d_in -> epsilon * d_in**2 "
        f"(exact), and its map is called at every d_in of {shown_d_ins()}, each value judged "
        "exactly against twice the inner loss at that same d_in; a call that raises is a "
        "counterexample",
        instances=f"{len(F64_SAMPLES)} f64 epsilons x 2 inner families x "
        f"{len(CONVERSION_D_INS)} d_in",
        bit_precise=(
            "at the instances: the real map's value against 2 * loss (exact), and at d_in = 1 "
            "against the f64 product 2 * epsilon rounded toward +inf, bit for bit",
        ),
        assumed=(
            "the factor 2 of the privacy computation (make_select_private_candidate.tex, "
            "Lemma [law]; checked on exact toy laws by the contract, not an SMT statement)",
        ),
    )
}

MODELLED = {
    "make_select_private_candidate": [
        "combinators/select_private_candidate/make_select_private_candidate.py",
        "combinators/_support/conversion_smt.py",
        "numeric/floats.py",
    ]
}
