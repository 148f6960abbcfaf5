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
"""

from __future__ import annotations

import math
import random
from itertools import combinations_with_replacement

import z3

from certdp.combinators.composition.smt_model import composed_loss
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


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_fully_adaptive_composition" not in names:
        return []
    return [instance(kind, pairs) for kind in ("code", "model") for pairs in (False, True)]


SCOPE = {
    "make_fully_adaptive_composition": Scope(
        formats=("f64", "real"),
        bound_to_code="the real odometer is built, its queryable answers queries whose maps "
        "state the sampled losses, and its own privacy_loss is read after each answer",
        instances=f"every pair and 40 seeded triples of {len(F64_SAMPLES)} f64 losses (0, "
        "subnormals, 1, the overflow edge, MAX, +inf, seeded draws), as epsilons and as "
        "(epsilon, delta) pairs",
        bit_precise=("each reading against the shared lemma's model, bit for bit",),
        abstractions=("each reading compared with the exact sum of the losses as exact reals",),
        assumed=(
            "the charge-before-release and locking argument under threads "
            "(combinators/_odometer/odometer.tex); the tests hammer it from 8 threads",
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
    ]
}
