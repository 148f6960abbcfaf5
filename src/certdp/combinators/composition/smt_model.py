"""SMT model of ``make_composition``'s privacy map, and the bounded checks that the map of the real
constructor is conservative.

Obligations bound to the code (``code``): at every pair and at sampled triples of inner losses
from :data:`certdp.contracts.smt_code.F64_SAMPLES` (zero, subnormals, values around 1, the
overflow edge, the largest finite f64, ``+inf``, seeded draws over every exponent), the real
``make_composition`` is built over measurements whose maps return those losses and its map is
called; the obligation is satisfiable exactly when that value is NaN, or below the exact sum of
the losses (compared as exact rationals), or finite while a loss is ``+inf``; and (``model``)
when it differs from the model below at those losses, bit for bit.  The same instances, paired
(``pairs``: the i-th pair is the i-th loss with the i-th loss of the reversed list), feed the real
constructor over ``Approximate(ZeroConcentratedDivergence)`` and ``Approximate(MaxDivergence)``
parts, and each coordinate of its map is checked the same two ways.  And (``renyi``) every pair and
seeded tuples of 3, 4 and 5 losses feed the real constructor over ``RenyiDivergence`` parts whose
curves depend on the order and on the part (:func:`renyi_part`: ``loss * alpha * (part + 1)``):
the composed curve the real map returns is called at the orders :data:`RENYI_ORDERS`, and each
value is checked the same two ways against the values the parts' curves give at that order.

Model (``privacy_map`` in make_composition.py): the inner losses ``l_1 .. l_k`` (floats ``>= 0``,
``+inf`` allowed); if one is ``+inf`` the result is ``+inf``; otherwise the exact sum (a
``Fraction``) cast up into f64 with ``inf_cast``, ``+inf`` when it overflows.  In SMT: the losses
converted into a format where their sum is exact (:mod:`..._support.smt_exact`), added there,
and rounded once toward ``+inf`` into the output format (IEEE's ``roundTowardPositive``, which is
``inf_cast`` on finite values and gives ``+inf`` past the largest finite value, as the code's
overflow branch does).

Obligations on the model, for every value of a format: for every pair of losses that are f32
values (every non-negative one, ``+inf`` included), the f64 total is not NaN and at least the
exact real sum; and for every pair and every triple of f16 losses, the same arithmetic in f16 (a
reduced format, where additions round often): not NaN, at least the exact sum, and the least
value of f16 that is.  Triples in f32 -> f64 take over a minute of solver time and are left out.
Together with the composition theorem (make_composition.tex: the exact sum of the losses is a
valid loss), this covers the map's arithmetic; the theorem itself (a property of distributions)
is not an SMT statement.
"""

from __future__ import annotations

import math
import random
from itertools import combinations_with_replacement

import z3

from certdp.combinators._support.smt_exact import common_sort, exact_sort, to_exact
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import F64_SAMPLES, Scope, exact, stub_measurement

__all__ = [
    "composed_loss",
    "composition_instance",
    "code_losses",
    "code_map",
    "code_instance",
    "obligations",
    "MODELLED",
    "SCOPE",
]

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


def code_losses() -> list[tuple[float, ...]]:
    """Every pair of :data:`F64_SAMPLES` and 40 seeded triples of them."""
    draw = random.Random(2)
    triples = [tuple(draw.choice(F64_SAMPLES) for _ in range(3)) for _ in range(40)]
    return list(combinations_with_replacement(F64_SAMPLES, 2)) + triples


def code_map(losses) -> float:
    """The real ``make_composition`` over measurements whose maps return ``losses`` (pure DP
    for pairs, zCDP for triples: the same code), its map at ``d_in = 1``."""
    from certdp.core.measures import max_divergence, zero_concentrated_divergence

    from .make_composition import make_composition

    measure = max_divergence() if len(losses) == 2 else zero_concentrated_divergence()
    return make_composition([stub_measurement(loss, measure) for loss in losses]).map(1)


def _too_small(losses, total):
    """Satisfiable when the code's ``total`` is not a valid composed loss: NaN, finite while a
    loss is ``+inf``, or below the exact sum."""
    if math.isnan(total):
        return z3.BoolVal(True)
    if any(math.isinf(loss) for loss in losses):
        return z3.BoolVal(not math.isinf(total))
    if math.isinf(total):
        return z3.BoolVal(False)
    return exact(total) < sum((exact(loss) for loss in losses), z3.RealVal(0))


def _differs(losses, total):
    """Satisfiable when the code's ``total`` is not the model's value at ``losses``."""
    f64 = z3.Float64()
    model, _ = composed_loss([z3.FPVal(loss, f64) for loss in losses], f64)
    return z3.Not(model == z3.FPVal(total, f64))


def code_pair_map(losses) -> tuple[float, float]:
    """The real ``make_composition`` over approximate measurements (zCDP for pairs, pure DP for
    triples) whose maps return the pairs ``(losses[i], losses[-1 - i])``, its map at 1."""
    from certdp.core.measures import approximate, max_divergence, zero_concentrated_divergence

    from .make_composition import make_composition

    inner = zero_concentrated_divergence() if len(losses) == 2 else max_divergence()
    pairs = list(zip(losses, reversed(losses)))
    return make_composition([stub_measurement(pair, approximate(inner)) for pair in pairs]).map(1)


#: The orders at which the Rényi instances call the real composed curve.
RENYI_ORDERS = (1.5, 2.0, 10.0, 1e6)


def renyi_losses() -> list[tuple[float, ...]]:
    """The Rényi instances: every pair of :data:`F64_SAMPLES`, and 40 seeded tuples each of 3, 4
    and 5 of them (so a curve that drops any part past the second is caught)."""
    draw = random.Random(3)
    longer = [
        tuple(draw.choice(F64_SAMPLES) for _ in range(size))
        for size in (3, 4, 5)
        for _ in range(40)
    ]
    return list(combinations_with_replacement(F64_SAMPLES, 2)) + longer


def renyi_part(loss: float, part: int):
    """The curve of part ``part`` of a Rényi instance: ``alpha -> loss * alpha * (part + 1)``
    (a Gaussian-like curve ``rho * alpha``, increasing in ``alpha`` and distinct per part; the
    float the product gives is the value, and the obligation reads it by calling the curve)."""

    def curve(alpha):
        return loss * alpha * (part + 1)

    return curve


def code_renyi_map(losses) -> tuple[tuple[tuple[float, ...], float], ...]:
    """The real ``make_composition`` over ``RenyiDivergence`` parts whose curves are
    :func:`renyi_part` of ``losses``: its map at ``d_in = 1`` (a curve) called at each of
    :data:`RENYI_ORDERS`, each value paired with the parts' own values at that order."""
    from certdp.core.renyi_divergence import renyi_divergence

    from .make_composition import make_composition

    curves = [renyi_part(loss, part) for part, loss in enumerate(losses)]
    parts = [stub_measurement(curve, renyi_divergence()) for curve in curves]
    composed = make_composition(parts).map(1)
    return tuple(
        (tuple(curve(alpha) for curve in curves), composed(alpha)) for alpha in RENYI_ORDERS
    )


def code_instance(
    kind: str = "code", map_of=None, pairs: bool = False, renyi: bool = False
) -> Obligation:
    """``kind="code"``: the real map's value at every instance of :func:`code_losses` is a valid
    composed loss; ``kind="model"``: it equals the model's; with ``pairs``, both coordinates of
    the map over approximate parts (:func:`code_pair_map`).  ``map_of`` replaces
    :func:`code_map` / :func:`code_pair_map` (for the tests)."""
    check = _too_small if kind == "code" else _differs

    def violation():
        cases = []
        for losses in renyi_losses() if renyi else code_losses():
            if renyi:
                total = (map_of or code_renyi_map)(losses)
                coordinates = list(total)
            elif pairs:
                total = (map_of or code_pair_map)(losses)
                coordinates = [(losses, total[0]), (tuple(reversed(losses)), total[1])]
            else:
                total = (map_of or code_map)(losses)
                coordinates = [(losses, total)]
            example = {"losses": [repr(v) for v in losses], "code map": repr(total)}
            for terms, value in coordinates:
                cases.append((check(terms, value), lambda m, e=example: e))
        return cases

    what = (
        "is not NaN, +inf when a loss is +inf, else >= the exact sum of the losses"
        if kind == "code"
        else "equals the model's f64 total bit for bit"
    )
    parts = "approximate parts (both coordinates)" if pairs else "pure-DP/zCDP parts"
    instances = "every pair and 40 triples"
    if renyi:
        parts = (
            f"Rényi parts (curves alpha -> loss * alpha * (part + 1); the composed curve at alpha"
            f" in {list(RENYI_ORDERS)}, against the parts' values there)"
        )
        instances = "every pair and 40 tuples each of 3, 4 and 5"
    return Obligation(
        constructor="make_composition",
        claim=f"real make_composition over {parts} at {instances} of "
        f"{len(F64_SAMPLES)} sampled f64 losses (0, subnormal, ..., MAX, +inf): its map {what}",
        format="f64", size=5 if renyi else 3, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_composition" not in names:
        return []
    code = [
        code_instance(kind, pairs=pairs) for pairs in (False, True) for kind in ("code", "model")
    ]
    code += [code_instance(kind, renyi=True) for kind in ("code", "model")]
    return code + [composition_instance(i, o, k, least=i == o) for i, o, k in CASES]


SCOPE = {
    "make_composition": Scope(
        formats=("f64", "f32", "f16"),
        bound_to_code="the real make_composition is built over inner measurements whose maps "
        "return the sampled losses (pure DP, zCDP, and pairs of them under Approximate(zCDP) and "
        "Approximate(MaxDivergence), and RenyiDivergence parts whose curves are alpha -> "
        "loss * alpha * (part + 1)), and its own map is called at each instance (under "
        "RenyiDivergence the composed curve it returns is called at alpha = 1.5, 2, 10 and 1e6 "
        "and compared with the parts' own values at that alpha, over 2 to 5 parts)",
        instances=f"every pair and 40 seeded triples of {len(F64_SAMPLES)} f64 losses spanning "
        "the format (0, subnormals, 1, the overflow edge, MAX, +inf, seeded draws); the Rényi "
        "instances also 40 seeded tuples each of 3, 4 and 5 of them",
        bit_precise=(
            "at the instances: the real map's value is compared exactly with the exact sum, and "
            "with the model bit for bit",
            "the model of the map for every pair of f32 losses (output f64)",
        ),
        reduced_formats=("the model for every pair and triple of f16 losses (output f16)",),
        assumed=(
            "the composition theorem (a property of distributions; make_composition.tex); under "
            "RenyiDivergence only the four orders and at most 5 parts are called",
        ),
    )
}


MODELLED = {
    "make_composition": [
        "combinators/composition/make_composition.py",
        "combinators/_compose/compose.py",
        "measurements/_renyi/renyi_curve.py",
        "combinators/_support/smt_exact.py",
        "numeric/floats.py",
    ]
}
