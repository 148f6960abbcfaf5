"""SMT model of ``make_chain_mt``'s privacy map, bound to the code.

Obligations bound to the code, one per pair of stage maps (as for ``make_chain_tt``): the real
``make_chain_mt(m1, t0)`` is built over a stub transformation and a stub measurement (max-
divergence) with those exact maps, and its map is called at every ``d_in`` of ``D_INS``.  A case
is satisfiable exactly when the chain returns a value that is not a number, is NaN, or is below
``map1(map0(d_in))`` (exact), or returns at all when ``map0`` gave a negative or NaN distance
(``chain_smt.chained_case``).
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
    stub_privacy_measurement,
    stub_transformation,
)
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope

__all__ = ["code_map", "code_instance", "obligations", "MODELLED", "SCOPE"]

_NAME = "make_chain_mt"
_case = chained_case


def code_map(outer: str, inner: str, d_in):
    """``(refused, value)`` of the real chain's map at ``d_in``."""
    from .make_chain_mt import make_chain_mt

    chain = make_chain_mt(
        stub_privacy_measurement(STAGE_MAPS[outer]), stub_transformation(STAGE_MAPS[inner])
    )
    return refused(lambda: chain.map(d_in))


def code_instance(outer: str, inner: str, map_of=None) -> Obligation:
    return chain_obligation(_NAME, "m1: {outer}, t0: {inner}", outer, inner, map_of or code_map)


def obligations(names=None) -> list[Obligation]:
    return [code_instance(*pair) for pair in STAGE_PAIRS] if selected(_NAME, names) else []


SCOPE = {
    _NAME: Scope(
        formats=("f64", "real"),
        bound_to_code="the real make_chain_mt is built over a stub transformation and a stub "
        "measurement with exact maps, and the chain's own map is called",
        instances=f"{len(STAGE_PAIRS)} pairs of stage maps x {len(D_INS)} d_in",
        bit_precise=("at the instances: the value is compared exactly with map1(map0(d_in))",),
        assumed=(
            "the stages' maps are valid (their own theorems); the chaining theorem "
            "(core/transformation.tex) for the function and the measure",
        ),  # fmt: skip
    )
}

MODELLED = {_NAME: ["combinators/chain_mt/make_chain_mt.py", "core/transformation.py"]}
