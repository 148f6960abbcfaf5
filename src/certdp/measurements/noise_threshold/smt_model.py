"""SMT model of ``make_noise_threshold``, bound to the code: the obligations of
make_laplace_threshold's model (laplace_threshold/smt_model.py: every pair of maps on 3 keys
against the real map's epsilon and the arguments it passes to ``threshold_delta``), at instances
of the real ``make_noise_threshold`` built with ``output_measure = approximate(max_divergence())``.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, traced
from certdp.measurements.laplace_threshold.smt_model import (
    D_INS,
    KEYS,
    close,
    pair_variables,
    violation_formula,
)

__all__ = ["SCALES", "THRESHOLDS", "built", "code_instance"]

_NAME = "make_noise_threshold"
SCALES = (1.0, 2.5)
THRESHOLDS = (-3, 5)


def built(scale, threshold):
    import certdp.prelude as dp

    from .make_noise_threshold import make_noise_threshold

    domain = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i32"))
    metric = dp.l01inf_distance(dp.absolute_distance(T="i32"))
    measure = dp.approximate(dp.max_divergence())
    return make_noise_threshold(domain, metric, measure, scale, threshold)


def code_instance(scale, threshold, built_of=built) -> Obligation:
    def violation():
        measurement = built_of(scale, threshold)
        cases = []
        for d_in in D_INS:
            try:
                value, records = traced(lambda d=d_in: measurement.map(d), ("threshold_delta",))
            except Exception:  # the map refuses this distance (allowed by the theorem)
                continue
            calls = [arguments for name, arguments, _, _ in records if name == "threshold_delta"]
            keys = pair_variables()
            formula = z3.And(
                close(keys, d_in),
                violation_formula(keys, scale, threshold, value, calls[-1] if calls else None),
            )
            example = {"scale": scale, "threshold": threshold, "d_in": repr(d_in),
                       "map": repr(value)}  # fmt: skip
            cases.append((formula, lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_noise_threshold i32 Approximate(MaxDivergence) scale={scale} "
        f"threshold={threshold}, d_in in {len(D_INS)} triples, every pair of maps on {KEYS} "
        "keys: epsilon covers the shared keys' moves and the delta's tail starts no further "
        "than a lone key's value (exact)",
        format="int", size=KEYS, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [code_instance(scale, threshold) for scale in SCALES for threshold in THRESHOLDS]


SCOPE = {
    _NAME: Scope(
        formats=("int", "real"),
        sizes=(KEYS,),
        bound_to_code="the real make_noise_threshold is built at each instance and its own map "
        "is called (under a tracer that records the arguments it passes to threshold_delta)",
        instances=f"i32 values; scales {SCALES} x thresholds {THRESHOLDS} x {len(D_INS)} "
        "triples d_in; every pair of maps on 3 keys (unbounded integers)",
        assumed=(
            "what make_laplace_threshold's model assumes (threshold_delta's lemma, "
            "laplace_map's lemma, the proof's one-key bound and product argument)",
        ),
    )
}

MODELLED = {_NAME: ["measurements/noise_threshold/make_noise_threshold.py"]}
