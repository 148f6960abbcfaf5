"""SMT model of ``make_pureDP_to_zCDP``'s privacy map, and the bounded checks that the map of the
real constructor is conservative.

Obligations bound to the code (``code``): at every inner epsilon of
:data:`certdp.contracts.smt_code.F64_SAMPLES` (zero, subnormals, values around 1, the points
where ``epsilon^2 / 2`` overflows, the largest finite f64, ``+inf``, seeded draws over every
exponent) and at every f16 epsilon, the real ``make_pureDP_to_zCDP`` is built over a pure-DP
measurement whose map returns that epsilon and its map is called; the obligation is satisfiable
exactly when that value is NaN, finite for an infinite epsilon, or below ``epsilon^2 / 2``
(exact rationals); and (``model``) when it differs from the model below, bit for bit.

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

from certdp.combinators._support.smt_exact import common_sort, exact_sort, to_exact
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import F64_SAMPLES, Scope, exact, stub_measurement

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


def code_map(epsilon) -> float:
    """The real ``make_pureDP_to_zCDP`` over a measurement whose map returns ``epsilon``, its
    map at ``d_in = 1``."""
    from certdp.core.measures import max_divergence

    from .make_pureDP_to_zCDP import make_pureDP_to_zCDP

    return make_pureDP_to_zCDP(stub_measurement(epsilon, max_divergence())).map(1)


def code_maps(epsilon) -> tuple:
    """:func:`code_map`'s value and that of the constructor's privacy-map closure called
    directly (the code make_pureDP_to_zCDP.tex cites; ``map`` runs the evaluator)."""
    from certdp.combinators._support.chain_smt import both_values
    from certdp.core.measures import max_divergence

    from .make_pureDP_to_zCDP import make_pureDP_to_zCDP

    return both_values(make_pureDP_to_zCDP(stub_measurement(epsilon, max_divergence())))


def _too_small(epsilon, rho):
    if math.isnan(rho):
        return z3.BoolVal(True)
    if math.isinf(epsilon):
        return z3.BoolVal(not math.isinf(rho))
    if math.isinf(rho):
        return z3.BoolVal(False)
    return exact(rho) < exact(epsilon) * exact(epsilon) / 2


def _differs(epsilon, rho):
    f64 = z3.Float64()
    model, _ = rho_of(z3.FPVal(epsilon, f64), f64)
    return z3.Not(model == z3.FPVal(rho, f64))


def code_instance(kind: str = "code", map_of=None) -> Obligation:
    """``kind="code"``: the real map's value at every instance of :func:`code_epsilons` is at
    least ``epsilon^2 / 2``; ``kind="model"``: it equals the model's.  ``map_of`` replaces
    :func:`code_map` (for the tests)."""
    check = _too_small if kind == "code" else _differs

    def violation():
        cases = []
        for epsilon in code_epsilons():
            for path, rho in zip(
                ("map", "closure"), (map_of(epsilon),) if map_of else code_maps(epsilon)
            ):
                example = {"epsilon": repr(epsilon), "path": path, "code map": repr(rho)}
                cases.append((check(epsilon, rho), lambda m, e=example: e))
        return cases

    what = (
        "is not NaN, +inf for epsilon = +inf, else >= epsilon^2/2 exactly"
        if kind == "code"
        else "equals the model's f64 rho bit for bit"
    )
    return Obligation(
        constructor="make_pureDP_to_zCDP",
        claim=f"real make_pureDP_to_zCDP at {len(code_epsilons())} inner epsilons ({len(F64_SAMPLES)} "
        f"f64 samples: 0, subnormal, ..., MAX, +inf; 100 seeded f32 values): its map and its "
        f"privacy-map closure called directly {what}",
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
        bound_to_code="the real make_pureDP_to_zCDP is built over an inner measurement whose map "
        "returns each sampled epsilon, and both its map (through the evaluator) and its own "
        "privacy-map closure (called directly) are called, at d_in = 1 only (the inner map "
        "ignores d_in, so an edit rescaling d_in is not caught)",
        instances=f"{len(F64_SAMPLES)} f64 epsilons spanning the format (0, subnormals, 1, the "
        "overflow edge of epsilon^2/2, MAX, +inf, seeded draws) and 100 seeded f32 values",
        bit_precise=(
            "at the instances: the real map's value is compared exactly with epsilon^2/2, and "
            "with the model bit for bit",
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
        "numeric/floats.py",
    ]
}
