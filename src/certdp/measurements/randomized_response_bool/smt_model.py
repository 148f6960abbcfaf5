"""SMT model of ``make_randomized_response_bool``, bound to the code.

* ``map``: the real constructor is built at every ``prob`` of :data:`PROBS` and its own map is
  called at every ``d_in`` of :data:`D_INS`; a case is satisfiable exactly when the value is
  below the exact loss ``ln(p / (1 - p))`` (``d_in >= 1``; ``0`` below that), decided by
  :func:`below_scaled_abs_log` on an interval enclosure of the logarithm;
* ``law``: the real release function is run on both inputs with its draws scripted
  (:func:`exact_law`: ``bernoulli_ratio`` and ``entropy_source`` of its module replaced, every
  outcome enumerated, each weighted by the ``n / d`` the code passes); its exact output law must
  be ``{arg: prob, not arg: 1 - prob}``.
"""

from __future__ import annotations

from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, exact
from certdp.measurements._randomized_response.smt_support import (
    below_scaled_abs_log,
    exact_law,
    law_of,
    shown_law,
)

_NAME = "make_randomized_response_bool"
PROBS = (0.5, 0.5000000000000001, 0.6, 0.75, 0.99, 0.9999999999999999)
D_INS = (0, 0.5, 1, 2, 2**40)


def built(prob):
    from .make_randomized_response_bool import make_randomized_response_bool

    return make_randomized_response_bool(prob)


def map_instance(built_of=built) -> Obligation:
    def violation():
        cases = []
        for prob in PROBS:
            measurement = built_of(prob)
            p = Fraction(prob)
            for d_in in D_INS:
                value = measurement.map(d_in)
                if d_in < 1:
                    below = exact(value) < 0
                else:
                    below = below_scaled_abs_log(value, 1, p / (1 - p))
                example = {"prob": prob, "d_in": d_in, "map": repr(value)}
                cases.append((below, lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_randomized_response_bool, prob in {PROBS}, d_in in {D_INS}: the map "
        "is >= ln(prob / (1 - prob)) for d_in >= 1 (exact reals, interval-enclosed log)",
        format="real", size=1, violation=violation,
    )  # fmt: skip


def law_instance(built_of=built) -> Obligation:
    def violation():
        cases = []
        for prob in PROBS:
            function = built_of(prob).function
            for arg in (True, False):
                law = exact_law(function, arg)
                wanted = law_of([(arg, prob), (not arg, 1 - Fraction(prob))])
                example = {"prob": prob, "arg": arg, "law": shown_law(law)}
                cases.append((z3.BoolVal(law != wanted), lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_randomized_response_bool, prob in {PROBS}, arg in (True, False): the "
        "exact output law of the real function, its draws scripted and enumerated, is "
        "{arg: prob, not arg: 1 - prob}",
        format="real", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [map_instance(), law_instance()]


SCOPE = {
    _NAME: Scope(
        formats=("f64", "real"),
        bound_to_code="the real make_randomized_response_bool is built at each instance and its "
        "own map is called; its real function is run with bernoulli_ratio / entropy_source "
        "replaced by scripted outcomes (both), and its exact output law is compared",
        instances=f"prob in {PROBS} x d_in in {D_INS}",
        abstractions=(
            "ln(p / (1 - p)) enclosed by mpmath interval arithmetic, refined until "
            "the comparison with the map value is decided",
        ),  # fmt: skip
        assumed=(
            "bernoulli_ratio(n, d) is True with probability n / d (samplers/bernoulli.tex); the "
            "law weights each scripted outcome by the n, d the code passes",
            "the max-divergence of the two laws is ln(p / (1 - p)) (the proof)",
        ),
    )
}

MODELLED = {_NAME: ["measurements/randomized_response_bool/make_randomized_response_bool.py"]}
