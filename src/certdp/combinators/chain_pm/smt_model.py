"""SMT model of ``make_chain_pm``'s privacy map, bound to the code.

Obligations bound to the code, one per output measure (the max-divergence, the zero-
concentrated divergence): the real ``make_chain_pm`` is built over a postprocessing function and
an inner measurement whose map is ``d_in -> loss * d_in`` (exact) for each loss of ``D_INS``
(f64 samples 0 to +inf, ints, Fractions), and at every ``d_in`` of ``MAP_D_INS`` (1, 2, 0.5,
1/3) both its map and its own privacy-map closure (called directly) are called.  A case is
satisfiable exactly when either refuses or gives a value that is not a number, is NaN, or is
below the inner loss ``loss * d_in`` (exact): postprocessing keeps the inner guarantee, so the
map may not claim less.  That the output measure is the inner one is checked beside.

The height guard (``height``): with runtime contracts on, the real ``make_chain_pm`` is applied
again and again to its own result, over a base of no postprocessing and over a base of 20 layers
built with contracts off (not checked, so not counted), until it refuses or reaches 12 checked
layers; every tower it builds is mapped and invoked.  A step is satisfiable exactly when the code
builds a tower of more than ``CHECKED_HEIGHT`` checked layers, refuses one of fewer (a needless
refusal), refuses with anything but ``MakeMeasurementError`` naming ``measurement0``, or a tower
it built fails to map or invoke (a ``RecursionError``, say).  Symbolically (``height-model``),
for every 16-bit count ``h`` of checked layers the code's test ``h >= CHECKED_HEIGHT`` accepts
only where one more layer keeps the count at most ``CHECKED_HEIGHT``.
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


#: The most checked layers the height instances try to stack.
HEIGHT_TRIES = 12


def code_heights() -> list[tuple]:
    """``(base, checked layers below, built, refusal, tower error)`` for each step of the real
    constructor stacking checked layers (contracts on) on each base: ``built`` tells whether it
    built the next layer, ``refusal`` is ``(class name, parameter)`` of its refusal, ``tower
    error`` the class name of what mapping or invoking the built tower raised (or ``None``)."""
    from certdp.core import switches
    from certdp.core.measures import max_divergence
    from certdp.core.postprocess import Function

    from .make_chain_pm import make_chain_pm

    steps = []
    for base_height in (0, 20):
        contracts = switches.contracts.enabled
        try:
            switches.contracts.enabled = False
            tower = scaled_stub_measurement(1.0, max_divergence())
            for _ in range(base_height):  # unchecked layers: built with contracts off
                tower = make_chain_pm(Function(lambda y: y, "f64"), tower)
            switches.contracts.enabled = True
            for below_count in range(HEIGHT_TRIES + 1):
                try:
                    tower = make_chain_pm(Function(lambda y: y, "f64"), tower)
                except Exception as error:
                    refusal = (type(error).__name__, getattr(error, "parameter", None))
                    steps.append((base_height, below_count, False, refusal, None))
                    break
                try:
                    tower.map(1.0)
                    tower.invoke(0.5)
                    failure = None
                except BaseException as error:  # a RecursionError is what the guard prevents
                    failure = type(error).__name__
                steps.append((base_height, below_count, True, None, failure))
        finally:
            switches.contracts.enabled = contracts
    return steps


def height_instance(steps_of=None) -> Obligation:
    """The real height guard at every step of :func:`code_heights` (or ``steps_of()``)."""
    from .make_chain_pm import CHECKED_HEIGHT

    def violation():
        cases = []
        for base, below_count, built, refusal, failure in (steps_of or code_heights)():
            if built:
                bad = below_count + 1 > CHECKED_HEIGHT or failure is not None
            else:
                bad = below_count < CHECKED_HEIGHT or refusal != (
                    "MakeMeasurementError",
                    "measurement0",
                )
            example = {
                "unchecked base": base, "checked layers below": below_count, "built": built,
                "refusal": repr(refusal), "tower error": repr(failure),
            }  # fmt: skip
            cases.append((z3.BoolVal(bad), lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"height guard: with contracts on, the real make_chain_pm stacked on itself "
        f"(bases of 0 and 20 unchecked layers) builds exactly the towers of at most "
        f"{CHECKED_HEIGHT} checked layers, each of which maps and invokes, and refuses the next "
        "with MakeMeasurementError naming measurement0",
        format="int", size=HEIGHT_TRIES, violation=violation,
    )  # fmt: skip


def height_model_instance() -> Obligation:
    """For every 16-bit count ``h``, accepting at ``h >= CHECKED_HEIGHT``'s negation keeps
    ``h + 1 <= CHECKED_HEIGHT`` (no overflow: ``h`` below the limit)."""
    from .make_chain_pm import CHECKED_HEIGHT

    def violation():
        h = z3.BitVec("h", 16)
        limit = z3.BitVecVal(CHECKED_HEIGHT, 16)
        accepted = z3.Not(z3.UGE(h, limit))  # the code's test at label height
        bad = z3.And(accepted, z3.UGT(h + 1, limit))
        return [(bad, lambda m: {"h": str(m.eval(h, True))})]

    return Obligation(
        constructor=_NAME,
        claim=f"height-model: for every 16-bit checked height h, the test h >= {CHECKED_HEIGHT} "
        f"accepts only where h + 1 <= {CHECKED_HEIGHT}",
        format="bv16", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if not selected(_NAME, names):
        return []
    return [code_instance(name) for name in _measures()] + [
        height_instance(),
        height_model_instance(),
    ]


SCOPE = {
    _NAME: Scope(
        formats=("f64", "real", "int", "bv16"),
        bound_to_code="the real make_chain_pm is built over inner measurements whose maps are "
        "d_in -> loss * d_in, and at each d_in both its map and its own privacy-map closure "
        "(called directly) are called; and (height guard) the real make_chain_pm is stacked on "
        "its own results with contracts on until it refuses, each tower built mapped and invoked",
        instances=f"2 inner measures x {len(D_INS)} losses x {len(MAP_D_INS)} d_in x 2 (map and "
        "closure)",
        bit_precise=(
            "at the instances: each value is compared exactly with loss * d_in",
            "the height guard: the real constructor's accept/refuse decision at every checked "
            f"height 0..{HEIGHT_TRIES} over two bases, and the test as a 16-bit comparison",
        ),
        assumed=(
            "the inner map is valid (its own theorem); postprocessing does not increase "
            "the divergence (the proof), for callbacks meeting postprocess-honest",
        ),  # fmt: skip
    )
}

MODELLED = {_NAME: ["combinators/chain_pm/make_chain_pm.py", "core/postprocess.py"]}
