"""SMT model of ``make_identity`` on dataset spaces and its bounded theorem.

Model of one record: the record itself.  Every obligation builds the real constructor, calls
its own map at ``d_in``, and runs its own function on a vector of special records (NaN, signed
zeros, infinities; the ends of the i32 range), whose output must be the same records in the
same order, bit for bit; ``tests/prove/test_identity_model.py`` checks this on random vectors.

Theorem, per element type: every record's image is a member of the element domain (the output
domain is the input domain), and neighbours at distance ``<= d_in`` map to outputs reached by
the same edits, so ``d_out <= d_in``, the code's map
(:func:`certdp.contracts.smt.elementwise_cases`).
"""

from __future__ import annotations

import math

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases, float_sort
from certdp.contracts.smt_code import Scope
from certdp.transformations.cast_default.smt_model import encode

__all__ = ["KINDS", "obligations", "MODELLED", "same_vector"]

_SIZE = 3
KINDS = ("f64", "i32")
_PROBES = {
    "f64": [math.nan, 0.0, -0.0, math.inf, -math.inf, 1.5, 5e-324],
    "i32": [0, -1, 2**31 - 1, -(2**31)],
}


def same_vector(a, b) -> bool:
    """The same records in the same order: floats by bit pattern (all NaNs alike)."""

    def key(v):
        return "nan" if isinstance(v, float) and math.isnan(v) else (type(v), repr(v))

    return len(a) == len(b) and all(key(x) == key(y) for x, y in zip(a, b))


def _element(kind: str):
    if kind == "i32":
        return lambda label: z3.BitVec(label, 32)
    return lambda label: z3.FP(label, float_sort(kind))


def _instance(kind: str, metric: str, d_in: int):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_identity import make_identity

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    built = make_identity(vector_domain(atom_domain(T=kind)), space_metric)
    stated = built.map(d_in)

    def violation():
        if stated != d_in:
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        probes = _PROBES[kind]
        image = built(probes)
        if not same_vector(image, probes):
            return [(z3.BoolVal(True), lambda m: {"probes": probes, "code": image})]
        if kind == "f64":  # the model is the code on each record (bit for bit)
            for record, out in zip(probes, image):
                if not z3.is_true(z3.simplify(encode(record, kind) == encode(out, kind))):
                    return [(z3.BoolVal(True), lambda m, r=record: {"r": r})]
        return elementwise_cases(
            lambda r: r, _element(kind), lambda r: z3.BoolVal(True), lambda out: z3.BoolVal(True),
            _SIZE, d_in, metric,
        )  # fmt: skip

    return Obligation(
        constructor="make_identity",
        claim=f"{kind} {metric} d_in={d_in} len<={_SIZE}",
        format=kind, size=_SIZE, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_identity" not in names:
        return []
    return [
        _instance(kind, metric, d_in)
        for kind in KINDS
        for metric in ("symmetric", "insert_delete")
        for d_in in (1, 2)
    ]


MODELLED = {"make_identity": ["transformations/identity/make_identity.py"]}

SCOPE = {
    "make_identity": Scope(
        formats=KINDS,
        sizes=(_SIZE,),
        bound_to_code="the real make_identity is built on vectors of each type under each "
        "dataset metric, its own map is called at d_in, and its own function is run on a "
        "vector of special records and must return them unchanged, in order, bit for bit",
        bit_precise=("every pair of f64 or i32 datasets of length <= N at distance <= d_in",),
        assumed=("the other metric spaces (absolute, L1, L2 distances) and element types are "
                 "covered by the proof and the tests only",
                 "SMT-LIB has one NaN per format: NaN payloads are covered by the proof only"),
        instances="d_in 1 and 2",
    )
}  # fmt: skip
