"""SMT model of ``make_report_noisy_max_gumbel``'s privacy map, bound to the code
(:mod:`certdp.measurements._selection.selection_smt`): the real constructor is built over i32
and NaN-free f64 score vectors, under the monotonic and the plain ``linf_distance``, for
``optimize`` ``"max"`` and ``"min"``, at every scale of ``SCALES``, and its own map is called at
every ``d_in`` of ``D_INS``; the measure must be the max-divergence and each value the least
f64 at or above ``R / scale``, ``R = d_in`` (monotonic) or ``2 d_in``, compared as exact
rationals.
"""

from __future__ import annotations

from dataclasses import replace

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope
from certdp.measurements._selection.selection_smt import D_INS, SCALES, selection_instance

__all__ = ["builder", "obligations", "SCOPE", "MODELLED"]

_NAME = "make_report_noisy_max_gumbel"
OPTIMIZE = ("max", "min")


def builder(optimize: str):
    """Builds the real measurement (the measure is its own: the obligation checks it)."""

    def built(T: str, monotonic: bool, measure: str, k: int, scale):
        from certdp.core.domains import atom_domain, vector_domain
        from certdp.core.partition_metrics import linf_distance

        from .make_report_noisy_max_gumbel import make_report_noisy_max_gumbel

        assert k == 1 and measure == "MaxDivergence"
        atom = atom_domain(T=T) if T == "i32" else atom_domain(T=T, nan=False)
        metric = linf_distance(T=T, monotonic=monotonic)
        return make_report_noisy_max_gumbel(vector_domain(atom), metric, scale, optimize)

    return built


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    result = []
    for optimize in OPTIMIZE:
        for T in ("i32", "f64"):
            for monotonic in (True, False):
                instance = selection_instance(
                    _NAME, T, monotonic, "MaxDivergence", builder(optimize), ks=(1,)
                )
                result.append(replace(instance, claim=f"optimize={optimize!r}: {instance.claim}"))
    return result


SCOPE = {
    _NAME: Scope(
        formats=("i32", "f64", "real"),
        bound_to_code="the real make_report_noisy_max_gumbel is built at each instance and its "
        "own map and output measure are read; each value is compared exactly with the bound and "
        "with the next f64 below it",
        instances=f"optimize in {OPTIMIZE} x i32 and f64 scores x monotonic or not x scales "
        f"{SCALES} x d_in {D_INS['i32']} (i32) or {D_INS['f64']} (f64)",
        assumed=(
            "the privacy theorem of _selection/selection.tex at k = 1 under the max-divergence "
            "and the sampler lemma of samplers/noisy_top_k.tex",
        ),
    )
}

MODELLED = {
    _NAME: [
        "measurements/report_noisy_max_gumbel/make_report_noisy_max_gumbel.py",
        "measurements/noisy_max/make_noisy_max.py",
        "measurements/_selection/selection.py",
        "measurements/_selection/selection_smt.py",
        "measurements/_laplace/rounded_map.py",
        "measurements/_laplace/parameters.py",
        "numeric/floats.py",
    ]
}
