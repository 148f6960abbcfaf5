"""SMT model of ``make_noise_threshold``, bound to the code: the obligations of
make_laplace_threshold's model (laplace_threshold/smt_model.py: every pair of maps on 3 keys
against the real map's epsilon and the arguments it passes to ``threshold_delta``) at instances
of the real ``make_noise_threshold`` built with ``output_measure = approximate(max_divergence())``,
and those of make_gaussian_threshold's model (gaussian_threshold/smt_model.py: rho against the
shared keys' squared moves and the arguments passed to ``gaussian_threshold_delta``) at
instances built with ``output_measure = approximate(zero_concentrated_divergence())``.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, traced
from certdp.measurements.gaussian_threshold import smt_model as gaussian
from certdp.measurements.laplace_threshold import smt_model as laplace

__all__ = ["SCALES", "THRESHOLDS", "MEASURES", "built", "code_instance"]

_NAME = "make_noise_threshold"
SCALES = (1.0, 2.5)
THRESHOLDS = (-3, 5)
#: The output measures and, for each, the model of the constructor it selects and the name of
#: the delta function whose arguments are recorded.
MEASURES = {
    "Approximate(MaxDivergence)": (laplace, "threshold_delta"),
    "Approximate(ZeroConcentratedDivergence)": (gaussian, "gaussian_threshold_delta"),
}


def built(scale, threshold, measure="Approximate(MaxDivergence)"):
    from certdp.core.domains import atom_domain
    from certdp.core.map_domain import map_domain
    from certdp.core.measures import approximate, max_divergence, zero_concentrated_divergence
    from certdp.core.metrics import absolute_distance
    from certdp.core.partition_metrics import l01inf_distance, l02inf_distance

    from .make_noise_threshold import make_noise_threshold

    domain = map_domain(atom_domain(T="String"), atom_domain(T="i32"))
    if measure == "Approximate(MaxDivergence)":
        metric = l01inf_distance(absolute_distance(T="i32"))
        output_measure = approximate(max_divergence())
    else:
        metric = l02inf_distance(absolute_distance(T="i32"))
        output_measure = approximate(zero_concentrated_divergence())
    return make_noise_threshold(domain, metric, output_measure, scale, threshold)


def code_instance(
    scale, threshold, built_of=built, measure="Approximate(MaxDivergence)"
) -> Obligation:
    model, delta_name = MEASURES[measure]

    def violation():
        measurement = built_of(scale, threshold, measure)
        cases = []
        for d_in in model.D_INS:
            try:
                value, records = traced(lambda d=d_in: measurement.map(d), (delta_name,))
            except Exception:  # the map refuses this distance (allowed by the theorem)
                continue
            calls = [arguments for name, arguments, _, _ in records if name == delta_name]
            keys = model.pair_variables()
            formula = z3.And(
                model.close(keys, d_in),
                model.violation_formula(
                    keys, scale, threshold, value, calls[-1] if calls else None
                ),
            )
            example = {"measure": measure, "scale": scale, "threshold": threshold,
                       "d_in": repr(d_in), "map": repr(value)}  # fmt: skip
            cases.append((formula, lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_noise_threshold i32 {measure} scale={scale} "
        f"threshold={threshold}, d_in in {len(model.D_INS)} triples, every pair of maps on "
        f"{model.KEYS} keys: epsilon (rho) covers the shared keys' (squared) moves and the "
        "delta's tail starts no further than a lone key's value (exact)",
        format="int", size=model.KEYS, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [
        code_instance(scale, threshold, measure=measure)
        for measure in MEASURES
        for scale in SCALES
        for threshold in THRESHOLDS
    ]


SCOPE = {
    _NAME: Scope(
        formats=("int", "real"),
        sizes=(laplace.KEYS,),
        bound_to_code="the real make_noise_threshold is built at each instance and its own map "
        "is called (under a tracer that records the arguments it passes to threshold_delta or "
        "gaussian_threshold_delta)",
        instances=f"i32 values; both output measures x scales {SCALES} x thresholds "
        f"{THRESHOLDS} x the triples d_in of each constructor's model; every pair of maps on 3 "
        "keys (unbounded integers)",
        assumed=(
            "what make_laplace_threshold's model assumes (threshold_delta's lemma, "
            "laplace_map's lemma, the proof's one-key bound and product argument)",
            "what make_gaussian_threshold's model assumes (gaussian_tail's lemma, the proof's "
            "one-key bound, mixture argument and Rényi bound)",
        ),
    )
}

MODELLED = {_NAME: ["measurements/noise_threshold/make_noise_threshold.py"]}
