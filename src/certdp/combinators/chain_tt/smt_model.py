"""SMT model of ``make_chain_tt``'s stability map, bound to the code.

Obligations bound to the code, one per pair of stage maps (:data:`~certdp.combinators._support.
chain_smt.STAGE_MAPS`: exact maps ``d/2``, ``d + 1``, ``d/3`` and maps returning ``-1`` or NaN):
the real ``make_chain_tt(t1, t0)`` is built over two stub transformations with those maps and
its map is called at every ``d_in`` of ``D_INS`` (f64 samples from 0 to +inf, ints, Fractions).
A case is satisfiable exactly when the chain returns a value that is not a number, is NaN, or
is below ``map1(map0(d_in))`` (exact), or returns at all when ``map0`` gave a value no valid map
gives (negative, NaN): the chain must refuse it, not pass it on (``chain_smt.chained_case``).
"""

from __future__ import annotations

from certdp.combinators._support.chain_smt import (
    D_INS,
    STAGE_MAPS,
    STAGE_PAIRS,
    chain_obligation,
    chained_case,
    refused,
    selected,
    stub_transformation,
)
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope

__all__ = ["code_map", "code_instance", "obligations", "MODELLED", "SCOPE"]

_NAME = "make_chain_tt"
_case = chained_case


def code_map(outer: str, inner: str, d_in):
    """``(refused, value)`` of the real chain's map at ``d_in``."""
    from .make_chain_tt import make_chain_tt

    chain = make_chain_tt(
        stub_transformation(STAGE_MAPS[outer]), stub_transformation(STAGE_MAPS[inner])
    )
    return refused(lambda: chain.map(d_in))


def code_instance(outer: str, inner: str, map_of=None) -> Obligation:
    return chain_obligation(_NAME, "t1: {outer}, t0: {inner}", outer, inner, map_of or code_map)


def obligations(names=None) -> list[Obligation]:
    return [code_instance(*pair) for pair in STAGE_PAIRS] if selected(_NAME, names) else []


SCOPE = {
    _NAME: Scope(
        formats=("f64", "real"),
        bound_to_code="the real make_chain_tt is built over stub transformations with exact "
        "maps, and the chain's own map is called",
        instances=f"{len(STAGE_PAIRS)} pairs of stage maps x {len(D_INS)} d_in",
        bit_precise=("at the instances: the value is compared exactly with map1(map0(d_in))",),
        assumed=(
            "the stages' maps are valid (their own theorems); the chaining theorem "
            "(core/transformation.tex) for the function",
        ),  # fmt: skip
    )
}

MODELLED = {_NAME: ["combinators/chain_tt/make_chain_tt.py", "core/transformation.py"]}
