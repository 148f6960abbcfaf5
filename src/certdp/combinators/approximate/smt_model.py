"""SMT model of ``make_approximate``'s privacy map, bound to the code.

Obligations bound to the code, one per inner measure (the max-divergence, the zero-concentrated
divergence): the real ``make_approximate`` is built over an inner measurement whose map is
``d_in -> loss * d_in`` (exact) for each loss of :data:`LOSSES` (every f64 sample of
``F64_SAMPLES``: 0, subnormals, 1, huge values, MAX, +inf; and exact ``int`` and ``Fraction``
losses), and at every ``d_in`` of ``MAP_D_INS`` (1, 2, 0.5, 1/3) both its map (through the
evaluator) and its own privacy-map closure (the code make_approximate.tex cites, called
directly) are called.  A case is satisfiable exactly when either refuses or returns anything
but a pair ``(d', delta)`` with ``d' >= d = loss * d_in`` and ``delta >= 0`` compared as exact
rationals (``+inf`` compared as itself), so the pair
states at least what the inner measurement guarantees, with ``delta = 0`` meaning the inner
closeness itself (make_approximate.tex).  The obligations have the shape of the chain models'
(``combinators/_support/chain_smt.py``).
"""

from __future__ import annotations

from fractions import Fraction

import z3

from certdp.combinators._support.chain_smt import (
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
from certdp.contracts.smt_code import F64_SAMPLES, Scope

__all__ = ["LOSSES", "code_map", "code_instance", "obligations", "MODELLED", "SCOPE"]

_NAME = "make_approximate"
_measures = inner_measures

#: The inner losses at which the real map is called.
LOSSES = (*F64_SAMPLES, 0, 3, 10**400, Fraction(1, 3), Fraction(10**500 + 1, 10**500))


def code_map(loss, measure):
    """The real ``make_approximate`` over a measurement whose map is ``d -> loss * d``: at
    every ``d_in`` of :data:`MAP_D_INS`, ``(d_in, outcome of map, outcome of the privacy-map
    closure called directly)``, each outcome ``(refused, value)``."""
    from .make_approximate import make_approximate

    built = make_approximate(scaled_stub_measurement(loss, measure))
    return tuple((d_in, *both_maps(built, d_in)) for d_in in MAP_D_INS)


def _invalid_pair(loss, pair):
    """Satisfiable exactly when ``pair`` is not a pair of numbers stating at least
    ``(loss, 0)`` (``below`` is true of a non-number or NaN)."""
    if type(pair) is not tuple or len(pair) != 2:
        return z3.BoolVal(True)
    stated, delta = pair
    return z3.Or(below(stated, loss), below(delta, 0))


def _invalid(loss, outcomes, measure=None):
    """Satisfiable exactly when, at some ``d_in``, the map or the closure refuses or returns
    anything but a pair stating at least ``(loss * d_in, 0)``."""
    cases = []
    for d_in, *both in outcomes:
        for was_refused, pair in both:
            cases.append(
                z3.BoolVal(True) if was_refused else _invalid_pair(scaled(loss, d_in), pair)
            )
    return z3.Or(*cases)


def code_instance(measure_name: str, map_of=None) -> Obligation:
    """The real map over inner ``measure_name`` at every loss of :data:`LOSSES`; ``map_of``
    replaces :func:`code_map` (for the tests)."""
    claim = "the map returns a pair (d', delta) with d' >= the inner loss and delta >= 0 (exact)"
    return loss_obligation(_NAME, measure_name, LOSSES, map_of or code_map, _invalid, claim)


def obligations(names=None) -> list[Obligation]:
    return [code_instance(name) for name in _measures()] if selected(_NAME, names) else []


SCOPE = {
    _NAME: Scope(
        formats=("f64", "real"),
        bound_to_code="the real make_approximate is built over inner measurements (max-divergence"
        " and zero-concentrated divergence) whose maps are d_in -> loss * d_in, and at each d_in "
        "both its map (the evaluator) and its own privacy-map closure (called directly) are "
        "called",
        instances=f"2 inner measures x {len(LOSSES)} losses (the f64 samples, ints, Fractions)"
        f" x {len(MAP_D_INS)} d_in x 2 (map and closure)",
        bit_precise=("at the instances: each pair is compared exactly with (loss * d_in, 0)",),
        assumed=("the inner measurement's map is valid (its own theorem)",),
    )
}


MODELLED = {
    _NAME: [
        "combinators/approximate/make_approximate.py",
        "combinators/_conversion/inner_values.py",
    ]
}
