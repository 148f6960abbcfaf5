"""SMT model of ``make_adaptive_composition``: its privacy map and its per-query budget check,
both taken from the real constructor.

Obligations bound to the code:

* ``map``: at every pair and 40 seeded triples of :data:`certdp.contracts.smt_code.F64_SAMPLES`
  used as ``d_mids`` (pure DP and zCDP), and the same lists paired as ``Approximate`` budgets
  (the i-th pair is the i-th budget with the i-th of the reversed list), the real constructor
  is built and its map called at ``d_in`` and at ``0``; a case is satisfiable exactly when a
  coordinate is NaN, finite while a budget is ``+inf``, below the exact sum of the budgets
  (exact rationals), or different, bit for bit, from the model of the shared sum
  (``composed_loss`` of the composition model: exact sum, rounded toward ``+inf`` once).
* ``ledger``: for every budget ``b`` of the samples and every loss ``l`` among ``b``, its two
  f64 neighbours and ``0``, the real compositor is released and asked a query whose map
  returns ``l`` at ``d_in``; satisfiable exactly when it accepts a query with ``l > b``
  (exact), refuses one with ``l <= b``, or accepts more queries than budgets (each instance
  asks one query more than there are budgets).

What is assumed: the composition theorems (a property of interactions between distributions,
cited in make_adaptive_composition.tex) and the queryable lemma (core/queryable.tex).
"""

from __future__ import annotations

import math
import random
from itertools import combinations_with_replacement

import z3

from certdp.combinators.composition.smt_model import composed_loss
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import F64_SAMPLES, Scope, exact, stub_measurement

__all__ = ["code_budgets", "code_map", "code_ledger", "obligations", "MODELLED", "SCOPE"]

_NAME = "make_adaptive_composition"
_F64 = z3.Float64()
D_IN = 1.0


def _space():
    from certdp.core.domains import atom_domain
    from certdp.core.metrics import absolute_distance

    return atom_domain(T="f64", nan=False), absolute_distance(T="f64")


def code_budgets() -> list[tuple[float, ...]]:
    """Every pair of :data:`F64_SAMPLES` and 40 seeded triples of them."""
    draw = random.Random(3)
    triples = [tuple(draw.choice(F64_SAMPLES) for _ in range(3)) for _ in range(40)]
    return list(combinations_with_replacement(F64_SAMPLES, 2)) + triples


def code_map(budgets, pairs: bool, d_in=D_IN):
    """The real constructor's map at ``d_in`` with ``budgets`` as ``d_mids`` (zCDP for pairs of
    budgets, pure DP for triples; as pairs ``(b_i, b_{-1-i})`` under ``Approximate``)."""
    from certdp.core.measures import approximate, max_divergence, zero_concentrated_divergence

    from .make_adaptive_composition import make_adaptive_composition

    inner = zero_concentrated_divergence() if len(budgets) == 2 else max_divergence()
    d_mids = list(zip(budgets, reversed(budgets))) if pairs else list(budgets)
    measure = approximate(inner) if pairs else inner
    return make_adaptive_composition(*_space(), measure, D_IN, d_mids).map(d_in)


def _bad_total(terms, total):
    """Satisfiable when ``total`` is not the model's sum of ``terms`` or not a valid one."""
    if math.isnan(total):
        return z3.BoolVal(True)
    model, _ = composed_loss([z3.FPVal(t, _F64) for t in terms], _F64)
    differs = z3.Not(model == z3.FPVal(total, _F64))
    if any(math.isinf(t) for t in terms):
        return z3.Or(z3.BoolVal(not math.isinf(total)), differs)
    if math.isinf(total):
        return differs
    below = exact(total) < sum((exact(t) for t in terms), z3.RealVal(0))
    return z3.Or(below, differs)


def map_instance(pairs: bool, map_of=None) -> Obligation:
    def violation():
        cases = []
        for budgets in code_budgets():
            for d_in in (D_IN, 0.0):
                total = (map_of or code_map)(budgets, pairs, d_in)
                example = {"d_mids": [repr(b) for b in budgets], "d_in": d_in, "map": repr(total)}
                if pairs:
                    coordinates = [(budgets, total[0]), (tuple(reversed(budgets)), total[1])]
                else:
                    coordinates = [(budgets, total)]
                for terms, value in coordinates:
                    cases.append((_bad_total(terms, value), lambda m, e=example: e))
        return cases

    parts = "Approximate budgets (both coordinates)" if pairs else "pure-DP/zCDP budgets"
    return Obligation(
        constructor=_NAME,
        claim=f"real make_adaptive_composition over {parts} at every pair and 40 triples of "
        f"{len(F64_SAMPLES)} sampled f64 budgets, map at d_in and 0: not NaN, >= the exact sum, "
        "+inf when a budget is, and the model's value bit for bit",
        format="f64", size=3, violation=violation,
    )  # fmt: skip


def _losses(budget: float) -> list[float]:
    near = [math.nextafter(budget, math.inf), math.nextafter(budget, 0.0)]
    return sorted({budget, 0.0, *[v for v in near if v >= 0]})


def code_ledger(budget: float, loss: float) -> tuple[bool, int]:
    """Release the real compositor with ``d_mids = [budget]``; ask a query whose map at
    ``d_in`` returns ``loss``, then one more (within budget): whether the first was accepted,
    and how many were accepted in all."""
    from certdp.core.errors import DPError
    from certdp.core.measures import max_divergence

    from .make_adaptive_composition import make_adaptive_composition

    measure = max_divergence()
    queryable = make_adaptive_composition(*_space(), measure, D_IN, [budget])(0.0)
    accepted = []
    for value in (loss, 0.0):
        try:
            queryable(stub_measurement(value, measure))
        except DPError:
            accepted.append(False)
        else:
            accepted.append(True)
    return accepted[0], sum(accepted)


def ledger_instance(ledger_of=None) -> Obligation:
    def violation():
        cases = []
        for budget in F64_SAMPLES:
            for loss in _losses(budget):
                first, count = (ledger_of or code_ledger)(budget, loss)
                if math.isinf(loss) or math.isinf(budget):
                    fits = z3.BoolVal(loss <= budget)  # +inf fits only an infinite budget
                else:
                    fits = exact(loss) <= exact(budget)
                bad = z3.Or(z3.BoolVal(count > 1), fits != z3.BoolVal(first))
                example = {"budget": repr(budget), "loss": repr(loss), "accepted": first,
                           "accepted in all": count}  # fmt: skip
                cases.append((bad, lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real compositor with one budget from {len(F64_SAMPLES)} sampled f64 values: a "
        "query is accepted exactly when its loss (the budget, its neighbours, 0) is <= the "
        "budget, compared exactly, and no more queries than budgets are accepted",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [map_instance(False), map_instance(True), ledger_instance()]


SCOPE = {
    _NAME: Scope(
        formats=("f64",),
        bound_to_code="the real make_adaptive_composition is built with the sampled budgets and "
        "its map called; the real released queryable is asked stub queries whose maps return "
        "the sampled losses",
        instances=f"every pair and 40 seeded triples of {len(F64_SAMPLES)} f64 budgets (plain "
        "and as Approximate pairs); every sampled budget against itself, its neighbours and 0",
        bit_precise=(
            "at the instances: the map's value against the exact sum and the model bit for bit",
            "at the instances: the accept/refuse decision against the exact comparison",
        ),
        assumed=(
            "the interactive composition theorems (make_adaptive_composition.tex)",
            "the queryable lemma (core/queryable.tex): one transition at a time",
        ),
    )
}

MODELLED = {
    _NAME: [
        "combinators/adaptive_composition/make_adaptive_composition.py",
        "combinators/_compose/compose.py",
        "core/queryable.py",
        "numeric/floats.py",
    ]
}
