"""SMT model of ``make_randomized_response``, bound to the code.

* ``map``: the real constructor is built for every category count of :data:`KS` at every
  ``prob`` of :data:`PROBS` it accepts, and its own map is called at every ``d_in`` of
  :data:`D_INS`; a case is satisfiable exactly when the value is below the exact loss
  ``|ln(p (k - 1) / (1 - p))|`` (``d_in >= 1``; ``0`` below that);
* ``law``: the Bernoulli trial's probability, read from the real function's closure, is exactly
  ``prob``, and the number of categories it draws the others from is ``k``.
"""

from __future__ import annotations

import inspect
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, exact
from certdp.core.errors import MakeMeasurementError
from certdp.measurements._randomized_response.smt_support import below_scaled_abs_log

_NAME = "make_randomized_response"
KS = (2, 3, 4, 7)
PROBS = (1 / 3, 0.25, 0.5, 0.6, 0.75, 0.99, 0.9999999999999999, 1.0)
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
                elif p == 1:
                    below = z3.BoolVal(value != float("inf"))
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


def law_instance(built_of=built) -> Obligation:
    def violation():
        cases = []
        for k, prob, measurement in _instances(built_of):
            closure = inspect.getclosurevars(measurement.function).nonlocals
            keep, count = closure["keep"], closure["k"]
            wrong = z3.Or(exact(keep) != exact(prob), z3.IntVal(count) != k)
            cases.append((wrong, lambda m, e={"k": k, "prob": prob}: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_randomized_response, k in {KS}, prob in {PROBS}: the function keeps "
        "the category with probability exactly prob and draws among k categories",
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
        "map is called; prob and k are read from the real function's closure",
        instances=f"k in {KS} x prob in {PROBS} (those accepted) x d_in in {D_INS}",
        abstractions=(
            "the logarithm enclosed by mpmath interval arithmetic, refined until the "
            "comparison with the map value is decided",
        ),  # fmt: skip
        assumed=(
            "bernoulli_ratio and below are exact samplers (samplers/*.tex)",
            "the max-divergence of two output laws is at most |ln(p (k - 1) / (1 - p))| "
            "(the proof)",
        ),
    )
}

MODELLED = {_NAME: ["measurements/randomized_response/make_randomized_response.py"]}
