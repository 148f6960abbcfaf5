"""SMT model of ``make_randomized_response``, bound to the code.

* ``map``: the real constructor is built for every category count of :data:`KS` at every
  ``prob`` of :data:`PROBS` it accepts, and its own map is called at every ``d_in`` of
  :data:`D_INS`; a case is satisfiable exactly when the value is below the exact loss
  ``|ln(p (k - 1) / (1 - p))|`` (``d_in >= 1``; ``0`` below that);
* ``law``: the real release function is run on every category and on a value outside them
  with its draws scripted (:func:`exact_law`: ``bernoulli_ratio`` and ``entropy_source`` of its
  module replaced, every outcome of every draw enumerated, each weighted by the arguments the
  code passes); its exact output law must be ``prob`` on the input and ``(1 - prob) / (k - 1)``
  on each other category, and uniform over the ``k`` categories outside them.
"""

from __future__ import annotations

from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, exact
from certdp.core.errors import MakeMeasurementError
from certdp.measurements._randomized_response.smt_support import (
    below_scaled_abs_log,
    exact_law,
    law_of,
    shown_law,
)

_NAME = "make_randomized_response"
KS = (2, 3, 4, 7)
PROBS = (1 / 3, 0.25, 0.5, 0.6, 0.75, 0.99, 0.9999999999999999)
D_INS = (0, 0.5, 1, 2, 2**40)


def built(k, prob):
    from .make_randomized_response import make_randomized_response

    return make_randomized_response([f"c{i}" for i in range(k)], prob)


def _instances(built_of):
    for k in KS:
        for prob in PROBS:
            try:
                yield k, prob, built_of(k, prob)
            except MakeMeasurementError:  # prob below 1/k: refused, nothing to check
                continue


def map_instance(built_of=built) -> Obligation:
    def violation():
        cases = []
        for k, prob, measurement in _instances(built_of):
            p = Fraction(prob)
            for d_in in D_INS:
                value = measurement.map(d_in)
                if d_in < 1:
                    below = exact(value) < 0
                else:
                    below = below_scaled_abs_log(value, 1, p * (k - 1) / (1 - p))
                example = {"k": k, "prob": prob, "d_in": d_in, "map": repr(value)}
                cases.append((below, lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_randomized_response, k in {KS}, prob in {PROBS} (where accepted), "
        f"d_in in {D_INS}: the map is >= |ln(prob (k - 1) / (1 - prob))| for d_in >= 1",
        format="real", size=1, violation=violation,
    )  # fmt: skip


def _wanted(categories, prob, arg):
    k = len(categories)
    if arg not in categories:
        return law_of((c, Fraction(1, k)) for c in categories)
    other = (1 - Fraction(prob)) / (k - 1)
    return law_of((c, Fraction(prob) if c == arg else other) for c in categories)


def law_instance(built_of=built) -> Obligation:
    def violation():
        cases = []
        for k, prob, measurement in _instances(built_of):
            categories = [f"c{i}" for i in range(k)]
            for arg in [*categories, "outside"]:
                law = exact_law(measurement.function, arg)
                wrong = law != _wanted(categories, prob, arg)
                example = {"k": k, "prob": prob, "arg": arg, "law": shown_law(law)}
                cases.append((z3.BoolVal(wrong), lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_randomized_response, k in {KS}, prob in {PROBS} (where accepted), "
        "arg every category and one outside: the exact output law of the real function, its "
        "draws scripted and enumerated, is prob on arg and (1 - prob) / (k - 1) on each other "
        "category (uniform when arg is outside)",
        format="real", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [map_instance(), law_instance()]


SCOPE = {
    _NAME: Scope(
        formats=("f64", "real"),
        bound_to_code="the real make_randomized_response is built at each instance and its own "
        "map is called; its real function is run with bernoulli_ratio / entropy_source "
        "replaced by scripted outcomes (every outcome of every draw), and its exact output law "
        "is compared",
        instances=f"k in {KS} x prob in {PROBS} (those accepted) x d_in in {D_INS} (map) or "
        "x every category and one value outside them (law)",
        abstractions=(
            "the logarithm enclosed by mpmath interval arithmetic, refined until the "
            "comparison with the map value is decided",
        ),  # fmt: skip
        assumed=(
            "bernoulli_ratio(n, d) and below(m) are exact samplers (samplers/*.tex); the law "
            "weights each scripted outcome by the n, d or m the code passes",
            "the max-divergence of two output laws is at most |ln(p (k - 1) / (1 - p))| "
            "(the proof)",
        ),
    )
}

MODELLED = {_NAME: ["measurements/randomized_response/make_randomized_response.py"]}
