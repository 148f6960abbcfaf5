"""SMT model of ``make_chain_pm``'s privacy map, bound to the code.

Obligations bound to the code, one per output measure (the max-divergence, the zero-
concentrated divergence): the real ``make_chain_pm`` is built over a postprocessing function and
an inner measurement whose map returns each loss of ``D_INS`` (f64 samples 0 to +inf, ints,
Fractions), and its map is called.  A case is satisfiable exactly when the value is not a
number, is NaN, or is below the inner loss (exact): postprocessing keeps the inner guarantee,
so the map may not claim less.  That the output measure is the inner one is checked beside.
"""

from __future__ import annotations

import z3

from certdp.combinators._support.chain_smt import (
    D_INS,
    below,
    inner_measures,
    loss_obligation,
    refused,
    selected,
)
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, stub_measurement

__all__ = ["code_map", "code_instance", "obligations", "MODELLED", "SCOPE"]

_NAME = "make_chain_pm"
_measures = inner_measures


def code_map(loss, measure):
    """``(refused, value, output measure)`` of the real constructor over an inner measurement
    whose map returns ``loss``."""
    from certdp.core.postprocess import Function

    from .make_chain_pm import make_chain_pm

    built = make_chain_pm(Function(lambda y: y, "f64"), stub_measurement(loss, measure))
    was_refused, value = refused(lambda: built.map(1))
    return was_refused, value, built.output_measure


def _wrong(loss, outcome, measure):
    """Satisfiable exactly when the chain refused, changed the measure, or claims less than
    the inner loss."""
    was_refused, value, output_measure = outcome
    if output_measure != measure or was_refused:
        return z3.BoolVal(True)
    return below(value, loss)


def code_instance(measure_name: str, map_of=None) -> Obligation:
    claim = "the output measure is the inner one and the map is >= the inner loss (exact)"
    return loss_obligation(_NAME, measure_name, D_INS, map_of or code_map, _wrong, claim)


def obligations(names=None) -> list[Obligation]:
    return [code_instance(name) for name in _measures()] if selected(_NAME, names) else []


SCOPE = {
    _NAME: Scope(
        formats=("f64", "real"),
        bound_to_code="the real make_chain_pm is built over inner measurements whose maps return "
        "each loss, and its own map is called",
        instances=f"2 inner measures x {len(D_INS)} losses",
        bit_precise=("at the instances: the value is compared exactly with the inner loss",),
        assumed=(
            "the inner map is valid (its own theorem); postprocessing does not increase "
            "the divergence (the proof), for callbacks meeting postprocess-honest",
        ),  # fmt: skip
    )
}

MODELLED = {_NAME: ["combinators/chain_pm/make_chain_pm.py", "core/postprocess.py"]}
