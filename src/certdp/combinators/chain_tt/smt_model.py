"""SMT model of ``make_chain_tt``'s stability map, bound to the code.

Obligations bound to the code, one per pair of stage maps (:data:`~certdp.combinators._support.
chain_smt.STAGE_MAPS`: exact maps ``d/2``, ``d + 1``, ``d/3`` and maps returning ``-1`` or NaN):
the real ``make_chain_tt(t1, t0)`` is built over two stub transformations with those maps and
its map is called at every ``d_in`` of ``D_INS`` (f64 samples from 0 to +inf, ints, Fractions).
A case is satisfiable exactly when the chain returns a value that is not a number, is NaN, or
is below ``map1(map0(d_in))`` (exact), or returns at all when ``map0`` gave a value no valid map
gives (negative, NaN): the chain must refuse it, not pass it on.
"""

from __future__ import annotations

import z3

from certdp.combinators._support.chain_smt import (
    D_INS,
    STAGE_MAPS,
    below,
    refused,
    stub_transformation,
)
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope

__all__ = ["code_map", "code_instance", "obligations", "MODELLED", "SCOPE"]

_NAME = "make_chain_tt"
_VALID = ("halve", "plus one", "third")
_PAIRS = [(outer, inner) for outer in _VALID for inner in STAGE_MAPS]


def code_map(outer: str, inner: str, d_in):
    """``(refused, value)`` of the real chain's map at ``d_in``."""
    from .make_chain_tt import make_chain_tt

    chain = make_chain_tt(
        stub_transformation(STAGE_MAPS[outer]), stub_transformation(STAGE_MAPS[inner])
    )
    return refused(lambda: chain.map(d_in))


def _case(outer, inner, d_in, outcome):
    was_refused, value = outcome
    middle = STAGE_MAPS[inner](d_in)
    if middle != middle or middle < 0:
        return z3.BoolVal(not was_refused)
    if was_refused:
        return z3.BoolVal(False)  # a refusal claims nothing
    return below(value, STAGE_MAPS[outer](middle))


def code_instance(outer: str, inner: str, map_of=None) -> Obligation:
    def violation():
        cases = []
        for d_in in D_INS:
            outcome = (map_of or code_map)(outer, inner, d_in)
            example = {"outer": outer, "inner": inner, "d_in": repr(d_in), "code": repr(outcome)}
            cases.append((_case(outer, inner, d_in, outcome), lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_chain_tt(t1: {outer}, t0: {inner}) at {len(D_INS)} d_in (f64 samples "
        "0 to +inf, ints, Fractions): the map is >= map1(map0(d_in)) (exact), and refuses when "
        "map0 returns a negative or NaN distance",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [code_instance(outer, inner) for outer, inner in _PAIRS]


SCOPE = {
    _NAME: Scope(
        formats=("f64", "real"),
        bound_to_code="the real make_chain_tt is built over stub transformations with exact "
        "maps, and the chain's own map is called",
        instances=f"{len(_PAIRS)} pairs of stage maps x {len(D_INS)} d_in",
        bit_precise=("at the instances: the value is compared exactly with map1(map0(d_in))",),
        assumed=(
            "the stages' maps are valid (their own theorems); the chaining theorem "
            "(core/transformation.tex) for the function",
        ),  # fmt: skip
    )
}

MODELLED = {_NAME: ["combinators/chain_tt/make_chain_tt.py", "core/transformation.py"]}
