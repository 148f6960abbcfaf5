"""SMT model of ``make_chain_pm``'s privacy map, bound to the code.

Obligations bound to the code, one per output measure (the max-divergence, the zero-
concentrated divergence): the real ``make_chain_pm`` is built over a postprocessing function and
an inner measurement whose map is ``d_in -> loss * d_in`` (exact) for each loss of ``D_INS``
(f64 samples 0 to +inf, ints, Fractions), and at every ``d_in`` of ``MAP_D_INS`` (1, 2, 0.5,
1/3) both its map and its own privacy-map closure (called directly) are called.  A case is
satisfiable exactly when either refuses or gives a value that is not a number, is NaN, or is
below the inner loss ``loss * d_in`` (exact): postprocessing keeps the inner guarantee, so the
map may not claim less.  That the output measure is the inner one is checked beside.
"""

from __future__ import annotations

import z3

from certdp.combinators._support.chain_smt import (
    D_INS,
    MAP_D_INS,
    below,
    both_maps,
    inner_measures,
    loss_obligation,
    scaled,
    scaled_stub_measurement,
    selected,
)
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope

__all__ = ["code_map", "code_instance", "obligations", "MODELLED", "SCOPE"]

_NAME = "make_chain_pm"
_measures = inner_measures


def code_map(loss, measure):
    """``(outcomes, output measure)`` of the real constructor over an inner measurement whose
    map is ``d -> loss * d``: ``outcomes`` holds, at every ``d_in`` of :data:`MAP_D_INS`,
    ``(d_in, outcome of map, outcome of the privacy-map closure called directly)``, each
    outcome ``(refused, value)``."""
    from certdp.core.postprocess import Function

    from .make_chain_pm import make_chain_pm

    built = make_chain_pm(Function(lambda y: y, "f64"), scaled_stub_measurement(loss, measure))
    outcomes = tuple((d_in, *both_maps(built, d_in)) for d_in in MAP_D_INS)
    return outcomes, built.output_measure


def _wrong(loss, outcome, measure):
    """Satisfiable exactly when the chain changed the measure, or at some ``d_in`` its map or
    closure refused or claims less than the inner loss ``loss * d_in``."""
    outcomes, output_measure = outcome
    if output_measure != measure:
        return z3.BoolVal(True)
    cases = []
    for d_in, *both in outcomes:
        for was_refused, value in both:
            cases.append(z3.BoolVal(True) if was_refused else below(value, scaled(loss, d_in)))
    return z3.Or(*cases)


def code_instance(measure_name: str, map_of=None) -> Obligation:
    claim = "the output measure is the inner one and the map is >= the inner loss (exact)"
    return loss_obligation(_NAME, measure_name, D_INS, map_of or code_map, _wrong, claim)


def obligations(names=None) -> list[Obligation]:
    return [code_instance(name) for name in _measures()] if selected(_NAME, names) else []


SCOPE = {
    _NAME: Scope(
        formats=("f64", "real"),
        bound_to_code="the real make_chain_pm is built over inner measurements whose maps are "
        "d_in -> loss * d_in, and at each d_in both its map and its own privacy-map closure "
        "(called directly) are called",
        instances=f"2 inner measures x {len(D_INS)} losses x {len(MAP_D_INS)} d_in x 2 (map and "
        "closure)",
        bit_precise=("at the instances: each value is compared exactly with loss * d_in",),
        assumed=(
            "the inner map is valid (its own theorem); postprocessing does not increase "
            "the divergence (the proof), for callbacks meeting postprocess-honest",
        ),  # fmt: skip
    )
}

MODELLED = {_NAME: ["combinators/chain_pm/make_chain_pm.py", "core/postprocess.py"]}
