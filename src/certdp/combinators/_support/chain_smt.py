"""The shared shape of the chaining and measure-wrapping SMT models (make_chain_tt,
make_chain_mt, make_chain_pm, make_approximate): stub stages with exact maps, the distances at
which the real constructors are evaluated, the exact comparison of a map's value, and the
obligations built from them, one per pair of stage maps or per inner measure, each calling
the real constructor's map."""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import F64_SAMPLES, exact
from certdp.core.exact_type import type_is

__all__ = [
    "D_INS",
    "STAGE_MAPS",
    "STAGE_PAIRS",
    "stub_transformation",
    "stub_privacy_measurement",
    "inner_measures",
    "below",
    "refused",
    "chained_case",
    "chain_obligation",
    "loss_obligation",
    "selected",
    "MAP_D_INS",
    "scaled",
    "scaled_stub_measurement",
    "both_maps",
    "both_values",
]

#: The input distances at which the real chains are evaluated: the f64 samples (0 to +inf),
#: and exact integers and Fractions.
D_INS = (*F64_SAMPLES, 0, 1, 10**400, Fraction(1, 3))


def _halve(d):
    return d if d == math.inf else Fraction(d) / 2


def _plus_one(d):
    return d if d == math.inf else Fraction(d) + 1


def _third(d):
    return d if d == math.inf else Fraction(d) / 3


def _negative(d):
    return -1.0


def _nan(d):
    return math.nan


#: Stage maps by name: exact, so the composed bound is known exactly; ``negative`` and ``nan``
#: return what no valid map returns (the chain must then refuse, never pass the value on).
STAGE_MAPS = {"halve": _halve, "plus one": _plus_one, "third": _third,
              "negative": _negative, "nan": _nan}  # fmt: skip


#: The valid stage maps an outer stage takes, and every (outer, inner) pair the chain models
#: check (the inner stage also takes the invalid maps).
VALID_STAGES = ("halve", "plus one", "third")
STAGE_PAIRS = [(outer, inner) for outer in VALID_STAGES for inner in STAGE_MAPS]


def stub_transformation(stability_map):
    """A transformation on f64 atoms (absolute distance) whose map is ``stability_map``."""
    from certdp.core.domains import atom_domain
    from certdp.core.metrics import absolute_distance
    from certdp.core.transformation import Transformation

    space = atom_domain(T="f64", nan=False), absolute_distance(T="f64")
    return Transformation(space[0], space[0], lambda x: x, space[1], space[1], stability_map)


def below(value, bound) -> z3.BoolRef:
    """Satisfiable exactly when ``value`` is not a number, is NaN, or is below ``bound``
    (exact; ``+inf`` compared as itself)."""
    if not type_is(value, int, float, Fraction) or value != value:
        return z3.BoolVal(True)
    if value == math.inf:
        return z3.BoolVal(False)
    if bound == math.inf or value == -math.inf:
        return z3.BoolVal(True)
    return exact(value) < exact(bound)


def refused(call) -> tuple[bool, object]:
    """``(True, None)`` if ``call()`` raises a ``DPError``; else ``(False, value)``."""
    from certdp.core.errors import DPError

    try:
        return False, call()
    except DPError:
        return True, None


def stub_privacy_measurement(privacy_map):
    """A measurement on f64 atoms (absolute distance, max-divergence) whose map is
    ``privacy_map``."""
    from certdp.core.domains import atom_domain
    from certdp.core.measures import max_divergence
    from certdp.core.metrics import absolute_distance
    from certdp.core.transformation import Measurement

    return Measurement(
        atom_domain(T="f64", nan=False), lambda x: x, absolute_distance(T="f64"),
        max_divergence(), privacy_map,
    )  # fmt: skip


def inner_measures() -> dict:
    """The inner measures of the measure-wrapping models, by name."""
    from certdp.core.measures import max_divergence, zero_concentrated_divergence

    return {"MaxDivergence": max_divergence(),
            "ZeroConcentratedDivergence": zero_concentrated_divergence()}  # fmt: skip


def chained_case(outer: str, inner: str, d_in, outcome) -> z3.BoolRef:
    """Satisfiable exactly when a chain of the stage maps ``outer`` after ``inner`` fails at
    ``d_in`` with ``outcome = (refused, value)``: it returns at all when the inner map gave a
    negative or NaN distance, or returns a value that is not a number, is NaN, or is below
    ``outer(inner(d_in))`` (exact).  A refusal of a valid middle value claims nothing."""
    was_refused, value = outcome
    middle = STAGE_MAPS[inner](d_in)
    if middle != middle or middle < 0:
        return z3.BoolVal(not was_refused)
    if was_refused:
        return z3.BoolVal(False)  # a refusal claims nothing
    return below(value, STAGE_MAPS[outer](middle))


def chain_obligation(name: str, stages: str, outer: str, inner: str, code_map) -> Obligation:
    """The obligation of the chain ``name`` (its stages described as ``stages``, e.g.
    ``"t1: {outer}, t0: {inner}"``) over the stage maps ``outer`` and ``inner``: the real
    chain's map (``code_map(outer, inner, d_in)``) at every ``d_in`` of :data:`D_INS`."""

    def violation():
        cases = []
        for d_in in D_INS:
            outcome = code_map(outer, inner, d_in)
            example = {"outer": outer, "inner": inner, "d_in": repr(d_in), "code": repr(outcome)}
            cases.append((chained_case(outer, inner, d_in, outcome), lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=name,
        claim=f"real {name}({stages.format(outer=outer, inner=inner)}) at {len(D_INS)} d_in "
        "(f64 samples 0 to +inf, ints, Fractions): the map is >= map1(map0(d_in)) (exact), and "
        "refuses when map0 returns a negative or NaN distance",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


def loss_obligation(name, measure_name, losses, code_map, judge, claim) -> Obligation:
    """The obligation of the measure wrapper ``name`` over an inner measurement of
    ``measure_name`` whose map returns each loss of ``losses``: ``judge(loss, code_map(loss,
    measure))`` is satisfiable exactly when the real constructor's outcome at that loss is
    wrong; ``claim`` names what is checked."""

    def violation():
        measure = inner_measures()[measure_name]
        cases = []
        for loss in losses:
            outcome = code_map(loss, measure)
            example = {"measure": measure_name, "loss": repr(loss), "code": repr(outcome)}
            cases.append((judge(loss, outcome, measure), lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=name,
        claim=f"real {name} over {measure_name}, at {len(losses)} inner losses (f64 samples "
        f"from 0 to +inf, ints, Fractions): {claim}",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


def selected(name: str, names) -> bool:
    """Does the engine ask for the obligations of ``name`` (``names`` is ``None`` for all)?"""
    return names is None or name in names


#: The input distances at which the measure-wrapping models call the real map: an inner map
#: that ignored or rescaled ``d_in`` would give a wrong value at one of them.
MAP_D_INS = (1, 2, 0.5, Fraction(1, 3))


def scaled(loss, d_in):
    """``loss * d_in``, exact (``loss`` itself at ``d_in = 1``; ``+inf`` stays ``+inf``)."""
    if d_in == 1 or loss == math.inf:
        return loss
    return Fraction(loss) * Fraction(d_in)


def scaled_stub_measurement(loss, measure):
    """A measurement on f64 atoms (absolute distance) under ``measure`` whose map is
    ``d_in -> loss * d_in`` (exact): it depends on ``d_in``."""
    from certdp.core.domains import atom_domain
    from certdp.core.metrics import absolute_distance
    from certdp.core.transformation import Measurement

    return Measurement(
        atom_domain(T="f64", nan=False), lambda x: x, absolute_distance(T="f64"), measure,
        lambda d_in: scaled(loss, d_in),
    )  # fmt: skip


def both_maps(built, d_in) -> tuple:
    """``((refused, value), (refused, value))``: ``built.map(d_in)`` (through the evaluator
    when ``built`` is a recorded node) and ``built``'s own privacy-map closure called directly
    (the code the proofs cite), so an obligation judging both binds each."""
    return refused(lambda: built.map(d_in)), refused(lambda: built._map(d_in))


def both_values(built, d_in=1) -> tuple:
    """``(built.map(d_in), built._map(d_in))``: the map (through the evaluator when ``built``
    is a recorded node) and ``built``'s own privacy-map closure called directly (the code the
    proofs cite); an obligation judging both binds each."""
    return built.map(d_in), built._map(d_in)
