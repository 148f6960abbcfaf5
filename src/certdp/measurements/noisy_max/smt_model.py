"""SMT model of ``make_noisy_max``'s privacy map, bound to the code
(:mod:`certdp.measurements._selection.selection_smt`): the real constructor is built over i32
and NaN-free f64 score vectors, under the monotonic and the plain ``linf_distance``, for both
output measures, at every scale of ``SCALES``, and its own map is called at every ``d_in`` of
``D_INS``; each value must be the least f64 at or above ``R / scale`` (max-divergence) or
``(R / scale)^2 / 8`` (zCDP), ``R = d_in`` (monotonic) or ``2 d_in``, compared as exact
rationals.
"""

from __future__ import annotations

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope
from certdp.measurements._selection.selection_smt import (
    D_INS,
    MEASURES,
    SCALES,
    selection_instance,
)

__all__ = ["built", "obligations", "SCOPE", "MODELLED"]

_NAME = "make_noisy_max"


def built(T: str, monotonic: bool, measure: str, k: int, scale):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.measures import max_divergence, zero_concentrated_divergence
    from certdp.core.partition_metrics import linf_distance

    from .make_noisy_max import make_noisy_max

    assert k == 1
    atom = atom_domain(T=T) if T == "i32" else atom_domain(T=T, nan=False)
    chosen = max_divergence() if measure == "MaxDivergence" else zero_concentrated_divergence()
    metric = linf_distance(T=T, monotonic=monotonic)
    return make_noisy_max(vector_domain(atom), metric, chosen, scale)


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [
        selection_instance(_NAME, T, monotonic, measure, built, ks=(1,))
        for T in ("i32", "f64")
        for monotonic in (True, False)
        for measure in MEASURES
    ]


SCOPE = {
    _NAME: Scope(
        formats=("i32", "f64", "real"),
        bound_to_code="the real make_noisy_max is built at each instance and its own map is "
        "called; each value is compared exactly with the bound and with the next f64 below it",
        instances=f"i32 and f64 scores x monotonic or not x both measures x scales {SCALES} x "
        f"d_in {D_INS['i32']} (i32) or {D_INS['f64']} (f64)",
        assumed=(
            "the privacy theorem of _selection/selection.tex at k = 1 and the sampler lemma of "
            "samplers/noisy_top_k.tex",
        ),
    )
}

MODELLED = {
    _NAME: [
        "measurements/noisy_max/make_noisy_max.py",
        "measurements/_selection/selection.py",
        "measurements/_selection/selection_smt.py",
        "measurements/_laplace/rounded_map.py",
        "measurements/_laplace/parameters.py",
        "numeric/floats.py",
    ]
}
