"""SMT model of ``make_identity`` on dataset spaces and its bounded theorem.

Model of one record: the record itself.  Every obligation builds the real constructor, calls
its own map at ``d_in``, and runs its own function on a vector of special records (NaN, signed
zeros, infinities; the ends of the i32 range), whose output must be the same records in the
same order, bit for bit; ``tests/prove/test_identity_model.py`` checks this on random vectors.

The code is tied to the model only on those probe records; for the other records the
model stands for the code by the hand proof.  The output-domain claim is read from the
constructor's own ``output_domain`` (:func:`certdp.contracts.smt_domain.member_claim`).

Theorem, per element type, for the MODEL's row: every member of the code's input element
domain is mapped into its output element domain, and neighbours at distance ``<= d_in`` map to outputs reached by
the same edits, so ``d_out <= d_in``, the code's map
(:func:`certdp.contracts.smt.elementwise_cases`).
"""

from __future__ import annotations

import math

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases, float_sort
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_domain import member_claim
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
            lambda r: r, _element(kind),
            lambda r: member_claim(built.input_domain.element_domain, r),
            lambda out: member_claim(built.output_domain.element_domain, out),
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
        "dataset metric; its stability map is called at d_in = 1 and 2; its function is run on "
        "the vector of probe records listed (f64: NaN, +-0.0, +-inf, 1.5, 5e-324; i32: 0, -1, "
        "-2**31, 2**31-1) and must return them unchanged, in order, bit for bit; the "
        "output-domain claim is the member claim of the constructor's own output_domain",
        bit_precise=("under the MODEL's row (the identity), every pair of f64 or i32 datasets "
                     "of length <= N at distance <= d_in, members of the code's input domain, "
                     "has outputs in the code's output domain at distance <= map(d_in)",),
        assumed=("the code's function is tied to the model only on the probe vector listed; "
                 "other datasets are covered by the hand proof (and random tests) only",
                 "the other metric spaces (change-one, Hamming, discrete, absolute, L1, L2 and "
                 "L-infinity distances) and element types are "
                 "covered by the proof and the tests only",
                 "SMT-LIB has one NaN per format: NaN payloads are covered by the proof only"),
        instances="d_in 1 and 2",
    )
}  # fmt: skip
