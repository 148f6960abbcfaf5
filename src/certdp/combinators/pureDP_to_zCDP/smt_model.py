"""SMT model of ``make_pureDP_to_zCDP``'s privacy map, and the bounded checks that the map of the
real constructor is conservative.

Obligations bound to the code (``code``): for every base epsilon of :func:`code_epsilons`
(:data:`certdp.contracts.smt_code.F64_SAMPLES`: zero, subnormals, values around 1, the points
where ``epsilon^2 / 2`` overflows, the largest finite f64, ``+inf``, seeded draws over every
exponent; and 100 seeded f32 values), the real ``make_pureDP_to_zCDP`` is built over a pure-DP
measurement whose map is ``d_in -> epsilon * d_in``, then over one whose map is ``d_in ->
epsilon * d_in**2`` (exact; :mod:`..._support.conversion_smt`), and its map and its privacy-map
closure are called at every ``d_in`` of ``CONVERSION_D_INS`` (1, 2, 3, 7, 10, 100, 0.5, 1/3,
1000, 10**400); the obligation is satisfiable exactly when a value is NaN, finite for an
infinite inner loss, or below ``loss^2 / 2`` for the inner loss of that family at that same
``d_in`` (exact rationals).  So a conversion that, at one of these ``d_in``, reads the inner map
at a smaller distance, or scales the value read at ``d_in = 1`` linearly (the quadratic family
gives more), is refuted; a misreading only at other ``d_in`` is not checked; and (``model``, at ``d_in = 1``, where the inner loss is the f64 epsilon
itself) when it differs from the model below, bit for bit.

Model (``privacy_map`` in make_pureDP_to_zCDP.py): for the inner epsilon (a float ``>= 0``,
``+inf`` allowed), ``+inf`` if it is infinite, else ``inf_cast(epsilon^2 / 2, "f64")``: the exact
rational rounded up once, ``+inf`` when it overflows.  In SMT: ``epsilon`` converted into a
format where its square and half of it are exact (:mod:`..._support.smt_exact`), squared and
halved there, then rounded toward ``+inf`` into the output format (``roundTowardPositive``
is ``inf_cast`` on finite values and ``+inf`` past the largest finite one, the code's overflow
branch).

Obligations on the model, for every epsilon of the input format (every non-negative value,
``+inf`` included): rho is not NaN, ``rho >= epsilon^2 / 2`` exactly, and rho is the least value
of the output format that is (rounded up once, not further).  Formats: every f32 epsilon into
f64 (the code's own output format, on the f32-valued subset of its inputs), every f32 epsilon
into f32 and every f16 epsilon into f16 (reduced formats, where the square rounds).  Every f64
epsilon into f64 exceeds the time budget (a 53-bit multiplier: over 120 s) and is left out.
With Bun and Steinke's Proposition 3.3 (epsilon-DP implies epsilon^2/2-zCDP;
make_pureDP_to_zCDP.tex) this covers the map; the proposition itself is not an SMT statement.
"""

from __future__ import annotations

import math
import random
import struct

import z3

from certdp.combinators._support.conversion_smt import (
    CONVERSION_D_INS,
    LOSS_FAMILIES,
    d_in_stub_measurement,
    linear,
    raised_case,
    shown_d_ins,
)
from certdp.combinators._support.smt_exact import common_sort, exact_sort, to_exact
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import F64_SAMPLES, Scope, exact

__all__ = [
    "rho_of",
    "rho_instance",
    "code_epsilons",
    "code_map",
    "code_instance",
    "obligations",
    "MODELLED",
    "SCOPE",
]

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


def code_epsilons() -> list[float]:
    """:data:`F64_SAMPLES` and 100 seeded f32 values over every exponent."""
    draw = random.Random(5)
    f32 = [struct.unpack("<f", struct.pack("<I", draw.randrange(1, 0x7F800000)))[0]
           for _ in range(100)]  # fmt: skip
    return sorted(set(F64_SAMPLES) | set(f32))


def _built(epsilon, family=linear):
    from certdp.core.measures import max_divergence

    from .make_pureDP_to_zCDP import make_pureDP_to_zCDP

    inner = d_in_stub_measurement(lambda d_in: family(epsilon, d_in), max_divergence())
    return make_pureDP_to_zCDP(inner)


def code_map(epsilon, d_in=1) -> float:
    """The real ``make_pureDP_to_zCDP`` over a measurement whose map is ``d -> epsilon * d``,
    its map at ``d_in``."""
    return _built(epsilon).map(d_in)


def code_maps(epsilon, d_in=1, family=linear) -> tuple:
    """:func:`code_map`'s value and that of the constructor's privacy-map closure called
    directly at ``d_in`` (the code make_pureDP_to_zCDP.tex cites; ``map`` runs the
    evaluator)."""
    from certdp.combinators._support.chain_smt import both_values

    return both_values(_built(epsilon, family), d_in)


def _too_small(epsilon, rho):
    """``epsilon``: the inner loss (a float, an int or a Fraction, perhaps beyond f64)."""
    if math.isnan(rho):
        return z3.BoolVal(True)
    if epsilon == math.inf:
        return z3.BoolVal(not math.isinf(rho))
    if math.isinf(rho):
        return z3.BoolVal(False)
    return exact(rho) < exact(epsilon) * exact(epsilon) / 2


def _differs(epsilon, rho):
    f64 = z3.Float64()
    model, _ = rho_of(z3.FPVal(epsilon, f64), f64)
    return z3.Not(model == z3.FPVal(rho, f64))


def code_instance(kind: str = "code", map_of=None) -> Obligation:
    """``kind="code"``: the real map's value at every base epsilon of :func:`code_epsilons` and
    every ``d_in`` of ``CONVERSION_D_INS`` is at least ``(epsilon d_in)^2 / 2``;
    ``kind="model"``: at ``d_in = 1`` it equals the model's.  ``map_of(epsilon, d_in, family)``
    replaces :func:`code_map` (for the tests)."""
    check = _too_small if kind == "code" else _differs
    d_ins = CONVERSION_D_INS if kind == "code" else (1,)

    def violation():
        cases = []
        families = LOSS_FAMILIES if kind == "code" else LOSS_FAMILIES[:1]
        for shown, family in families:
            for d_in in d_ins:
                for epsilon in code_epsilons():
                    where = {"inner map": f"epsilon {shown}", "epsilon": repr(epsilon),
                             "d_in": repr(d_in)}  # fmt: skip
                    try:
                        values = (
                            (map_of(epsilon, d_in, family),)
                            if map_of
                            else code_maps(epsilon, d_in, family)
                        )
                    except Exception as error:  # a map that raises here is refuted
                        cases.append(raised_case(error, where))
                        continue
                    loss = family(epsilon, d_in)
                    for path, rho in zip(("map", "closure"), values):
                        example = {**where, "path": path, "code map": repr(rho)}
                        cases.append((check(loss, rho), lambda m, e=example: e))
        return cases

    what = (
        f"at every d_in of {shown_d_ins()}, where the inner loss is epsilon * d_in or epsilon * "
        "d_in**2: is not NaN, "
        "+inf for an infinite loss, else >= loss^2/2 exactly"
        if kind == "code"
        else "at d_in = 1 equals the model's f64 rho bit for bit"
    )
    return Obligation(
        constructor="make_pureDP_to_zCDP",
        claim=f"real make_pureDP_to_zCDP over inner maps d_in -> epsilon * d_in (and, for "
        f"the code check, d_in -> epsilon * d_in**2) at "
        f"{len(code_epsilons())} base epsilons ({len(F64_SAMPLES)} f64 samples: 0, subnormal, "
        f"..., MAX, +inf; 100 seeded f32 values): its map and its privacy-map closure called "
        f"directly {what}",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_pureDP_to_zCDP" not in names:
        return []
    return [
        code_instance("code"),
        code_instance("model"),
        rho_instance((8, 24), (11, 53)),
        rho_instance((8, 24)),
        rho_instance((5, 11)),
    ]


SCOPE = {
    "make_pureDP_to_zCDP": Scope(
        formats=("f64", "f32", "f16"),
        bound_to_code="the real make_pureDP_to_zCDP is built over inner measurements whose maps "
        "are d_in -> epsilon * d_in and d_in -> epsilon * d_in**2 (exact) for each sampled "
        "epsilon, and both its map (through the evaluator) and its own privacy-map closure "
        f"(called directly) are called at every d_in of {shown_d_ins()}, each value judged "
        "against the inner loss of that family at that same d_in: a conversion that, at one of "
        "these d_in, reads a smaller inner value than its own d_in gives (another distance, or "
        "the value at d_in = 1 scaled linearly) is refuted; a misreading at other d_in only is "
        "not checked; a call that raises is a counterexample",
        instances=f"{len(F64_SAMPLES)} f64 epsilons spanning the format (0, subnormals, 1, the "
        "overflow edge of epsilon^2/2, MAX, +inf, seeded draws) and 100 seeded f32 values, x "
        f"2 inner families x {len(CONVERSION_D_INS)} d_in (int, f64, Fraction, beyond the f64 "
        "range) x 2 (map and closure)",
        bit_precise=(
            "at the instances: the real map's value is compared exactly with loss^2/2 (loss = "
            "the family's epsilon * d_in or epsilon * d_in**2, exact), and at d_in = 1 with the model bit for bit",
            "the model of the map for every f32 epsilon (output f64)",
        ),
        reduced_formats=(
            "the model for every f32 epsilon into f32 and every f16 epsilon into f16",
        ),
        assumed=(
            "Bun and Steinke's Proposition 3.3 (a property of distributions; "
            "make_pureDP_to_zCDP.tex)",
        ),
    )
}


MODELLED = {
    "make_pureDP_to_zCDP": [
        "combinators/pureDP_to_zCDP/make_pureDP_to_zCDP.py",
        "combinators/_support/smt_exact.py",
        "combinators/_support/conversion_smt.py",
        "numeric/floats.py",
    ]
}
