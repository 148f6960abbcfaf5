"""SMT obligations of ``make_fully_adaptive_composition``, bound to the code: the accounting of
its queryable.

At every pair and 40 seeded triples of the losses of
:data:`certdp.contracts.smt_code.F64_SAMPLES` (zero, subnormals, around 1, the overflow edge,
MAX, ``+inf``), the real odometer (pure DP; and Approximate(MaxDivergence) with the losses as
epsilons beside the reversed list as deltas) is invoked, the queries stating those losses are
answered one after another, and the queryable's own ``privacy_loss(1.0)`` is read after each
answer.  The obligation (``code``) is satisfiable exactly when a reading is NaN, is finite while
an answered loss is ``+inf``, is below the exact sum of the losses answered so far (exact reals),
or is below the previous reading; and (``model``) when a reading differs, bit for bit, from the
model of the shared lemma (``combinators/_compose``: the losses converted into a format where
their sum is exact, added there and rounded once toward ``+inf`` into Float64; the model of
``composition/smt_model.py``).

Rényi (``renyi``): at every pair and 40 seeded tuples each of 3, 4 and 5 losses (the instances of
``composition/smt_model.py``), the real odometer under ``RenyiDivergence`` answers, one after
another, queries whose maps return the order-dependent curves ``alpha -> loss * alpha * (part +
1)``, and after each answer the curve of its own ``privacy_loss(1.0)`` is called at the orders
1.5, 2, 10 and 1e6.  Satisfiable exactly when a value is NaN, finite while a part's value is
``+inf``, or below the exact sum of the answered parts' values at that order (``code``), or
differs bit for bit from the shared lemma's model of that sum (``model``).
"""

from __future__ import annotations

import math
import random
from itertools import combinations_with_replacement

import z3

from certdp.combinators.composition.smt_model import (
    RENYI_ORDERS,
    _differs,
    _too_small,
    composed_loss,
    renyi_losses,
    renyi_part,
)
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import F64_SAMPLES, Scope, exact

__all__ = ["obligations", "code_readings", "MODELLED", "SCOPE"]

_F64 = z3.Float64()


def loss_lists() -> list[tuple[float, ...]]:
    """Every pair of :data:`F64_SAMPLES` and 40 seeded triples of them."""
    draw = random.Random(4)
    triples = [tuple(draw.choice(F64_SAMPLES) for _ in range(3)) for _ in range(40)]
    return list(combinations_with_replacement(F64_SAMPLES, 2)) + triples


def code_readings(losses, pairs: bool = False) -> list:
    """The real queryable's ``privacy_loss(1.0)`` after each answer (pairs: ``(loss, reversed
    loss)`` per query under Approximate(MaxDivergence))."""
    from certdp.core.domains import atom_domain
    from certdp.core.measures import approximate, max_divergence
    from certdp.core.metrics import absolute_distance
    from certdp.core.transformation import Measurement

    from .make_fully_adaptive_composition import make_fully_adaptive_composition

    space = atom_domain(T="f64", nan=False), absolute_distance(T="f64")
    measure = approximate(max_divergence()) if pairs else max_divergence()
    stated = list(zip(losses, reversed(losses))) if pairs else list(losses)
    queryable = make_fully_adaptive_composition(*space, measure)(0.0)
    readings = []
    for loss in stated:
        queryable(Measurement(space[0], lambda x: 0.0, space[1], measure, lambda d, v=loss: v))
        readings.append(queryable.privacy_loss(1.0))
    return readings


def _coordinate_violation(values, reading, previous, kind):
    if not isinstance(reading, float) or math.isnan(reading):
        return z3.BoolVal(True)
    if kind == "model":
        model, _ = composed_loss([z3.FPVal(v, _F64) for v in values], _F64)
        return z3.Not(model == z3.FPVal(reading, _F64))
    if any(v == math.inf for v in values):
        return z3.BoolVal(reading != math.inf)
    if reading == math.inf:
        return z3.BoolVal(False)
    below = exact(reading) < sum((exact(v) for v in values), z3.RealVal(0))
    if previous is not None and previous != math.inf:
        return z3.Or(below, exact(reading) < exact(previous))
    return z3.Or(below, z3.BoolVal(previous == math.inf))


def _violation(losses, pairs, kind):
    readings = code_readings(losses, pairs)
    parts = []
    columns = [list(losses), list(reversed(losses))] if pairs else [list(losses)]
    for step, reading in enumerate(readings):
        coordinates = reading if pairs else (reading,)
        for c, value in enumerate(coordinates):
            previous = None
            if step > 0:
                previous = readings[step - 1][c] if pairs else readings[step - 1]
            parts.append(_coordinate_violation(columns[c][: step + 1], value, previous, kind))
    example = {"losses": [repr(v) for v in losses], "pairs": pairs, "readings": repr(readings)}
    return z3.Or(*parts), lambda m, e=example: e


def instance(kind: str, pairs: bool) -> Obligation:
    lists = loss_lists()

    def violation():
        return [_violation(losses, pairs, kind) for losses in lists]

    what = (
        "never NaN, +inf once a loss is +inf, never below the exact sum so far, never decreasing"
        if kind == "code"
        else "equals the shared lemma's model (exact sum rounded up once) bit for bit"
    )
    measure = "Approximate(MaxDivergence)" if pairs else "MaxDivergence"
    return Obligation(
        constructor="make_fully_adaptive_composition",
        claim=f"real odometer ({measure}) at every pair and 40 triples of {len(F64_SAMPLES)} "
        f"sampled f64 losses: privacy_loss(1.0) after each answer is {what}",
        format="f64", size=3, violation=violation,
    )  # fmt: skip


def code_renyi_readings(losses) -> list:
    """The real odometer under RenyiDivergence answering queries whose curves are
    :func:`renyi_part` of ``losses``: after each answer, for each order of
    :data:`RENYI_ORDERS`, the answered parts' values there and its ``privacy_loss(1.0)`` curve's
    value there."""
    from certdp.core.domains import atom_domain
    from certdp.core.metrics import absolute_distance
    from certdp.core.renyi_divergence import renyi_divergence
    from certdp.core.transformation import Measurement

    from .make_fully_adaptive_composition import make_fully_adaptive_composition

    space = atom_domain(T="f64", nan=False), absolute_distance(T="f64")
    measure = renyi_divergence()
    queryable = make_fully_adaptive_composition(*space, measure)(0.0)
    curves, readings = [], []
    for part, loss in enumerate(losses):
        curve = renyi_part(loss, part)
        queryable(Measurement(space[0], lambda x: 0.0, space[1], measure, lambda d, c=curve: c))
        curves.append(curve)
        reported = queryable.privacy_loss(1.0)
        readings += [(tuple(c(a) for c in curves), reported(a)) for a in RENYI_ORDERS]
    return readings


def renyi_instance(kind: str, readings_of=None) -> Obligation:
    """The real Rényi odometer's readings (or ``readings_of(losses)``) checked against the exact
    sum (``code``) or the shared lemma's model (``model``)."""
    check = _too_small if kind == "code" else _differs

    def violation():
        cases = []
        for losses in renyi_losses():
            readings = (readings_of or code_renyi_readings)(losses)
            example = {"losses": [repr(v) for v in losses], "readings": repr(readings)}
            for terms, value in readings:
                cases.append((check(terms, value), lambda m, e=example: e))
        return cases

    what = (
        "is not NaN, +inf when a part is +inf, else >= the exact sum of the parts there"
        if kind == "code"
        else "equals the shared lemma's model (exact sum rounded up once) bit for bit"
    )
    return Obligation(
        constructor="make_fully_adaptive_composition",
        claim=f"real odometer (RenyiDivergence) answering curves alpha -> loss * alpha * (part + "
        f"1) at every pair and 40 tuples each of 3, 4, 5 of {len(F64_SAMPLES)} sampled f64 "
        f"losses: privacy_loss(1.0) after each answer, at alpha in {list(RENYI_ORDERS)}, {what}",
        format="f64", size=5, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_fully_adaptive_composition" not in names:
        return []
    return [instance(kind, pairs) for kind in ("code", "model") for pairs in (False, True)] + [
        renyi_instance(kind) for kind in ("code", "model")
    ]


SCOPE = {
    "make_fully_adaptive_composition": Scope(
        formats=("f64", "real"),
        bound_to_code="the real odometer is built, its queryable answers queries whose maps "
        "state the sampled losses, and its own privacy_loss is read after each answer",
        instances=f"every pair and 40 seeded triples of {len(F64_SAMPLES)} f64 losses (0, "
        "subnormals, 1, the overflow edge, MAX, +inf, seeded draws), as epsilons and as "
        "(epsilon, delta) pairs; under RenyiDivergence every pair and 40 seeded tuples each of "
        "3, 4 and 5 losses as curves alpha -> loss * alpha * (part + 1), read at alpha = 1.5, "
        "2, 10, 1e6",
        bit_precise=("each reading against the shared lemma's model, bit for bit",),
        abstractions=("each reading compared with the exact sum of the losses as exact reals",),
        assumed=(
            "the charge-before-release and locking argument under threads "
            "(combinators/_odometer/odometer.tex); the tests hammer it from 8 threads",
            "under RenyiDivergence, orders other than the four read, and more than 5 queries",
        ),
    )
}

MODELLED = {
    "make_fully_adaptive_composition": [
        "combinators/fully_adaptive_composition/make_fully_adaptive_composition.py",
        "combinators/_odometer/odometer.py",
        "combinators/_compose/compose.py",
        "combinators/composition/smt_model.py",
        "numeric/floats.py",
        "measurements/_renyi/renyi_curve.py",
    ]
}
