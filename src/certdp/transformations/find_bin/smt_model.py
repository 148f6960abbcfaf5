"""SMT model of ``make_find_bin`` and its bounded theorem.

Model of one record of ``i32``: the number of edges at or below it (``bisect_right`` on the
strictly increasing edges), a sum of 0/1 terms.  Every obligation builds the real constructor,
calls its own map at ``d_in``, and runs its own function on the edges, their neighbours and the
ends of the i32 range, which must agree with the model; ``tests/prove/test_find_bin_model.py``
checks the model against the code on random records.

The code is tied to the model only on those probe records; for the other records the
model stands for the code by the hand proof.  The output-domain claim is read from the
constructor's own ``output_domain`` (:func:`certdp.contracts.smt_domain.member_claim`).

Theorem, per list of edges, for the MODEL's row: every record's image is in the code's
output element domain, and neighbours at distance ``<= d_in`` map to outputs reached by
the same edits, so ``d_out <= d_in``, the code's map
(:func:`certdp.contracts.smt.elementwise_cases`).
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_domain import member_claim

__all__ = ["bin_record", "EDGES", "obligations", "MODELLED"]

_SIZE = 3
_LOW, _HIGH = -(2**31), 2**31 - 1
#: Edge lists checked (i32, strictly increasing): none, one, and several up to the range end.
EDGES = ((), (0,), (-5, 0, 7, _HIGH))


def bin_record(record, edges):
    """The model's image of ``record`` (a z3 Int): how many edges are ``<= record``."""
    return z3.Sum([z3.IntVal(0)] + [z3.If(edge <= record, 1, 0) for edge in edges])


def _probes(edges) -> list:
    around = {e + k for e in edges for k in (-1, 0, 1)} | {0, 12345, _LOW, _HIGH}
    return sorted(v for v in around if _LOW <= v <= _HIGH)


def _instance(edges, metric: str, d_in: int):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_find_bin import make_find_bin

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    built = make_find_bin(vector_domain(atom_domain(T="i32")), space_metric, list(edges))
    stated = built.map(d_in)

    def violation():
        if stated != d_in:
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        probes = _probes(edges)
        for record, image in zip(probes, built(probes)):
            if z3.simplify(bin_record(z3.IntVal(record), edges)).as_long() != image:
                return [(z3.BoolVal(True), lambda m, r=record, i=image: {"r": r, "code": i})]
        return elementwise_cases(
            lambda r: bin_record(r, edges), lambda label: z3.Int(label),
            lambda r: z3.And(_LOW <= r, r <= _HIGH),
            lambda out: member_claim(built.output_domain.element_domain, out), _SIZE, d_in, metric,
        )  # fmt: skip

    return Obligation(
        constructor="make_find_bin",
        claim=f"i32 edges={list(edges)} {metric} d_in={d_in} len<={_SIZE}",
        format="i32", size=_SIZE, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_find_bin" not in names:
        return []
    return [
        _instance(edges, metric, d_in)
        for edges in EDGES
        for metric in ("symmetric", "insert_delete")
        for d_in in (1, 2)
    ]


MODELLED = {
    "make_find_bin": [
        "transformations/find_bin/make_find_bin.py",
        "transformations/_cast/convert.py",
        "transformations/_rowmap/rowmap.py",
    ]
}

SCOPE = {
    "make_find_bin": Scope(
        formats=("i32",),
        sizes=(_SIZE,),
        bound_to_code="the real make_find_bin is built for each list of edges; its stability "
        "map is called at d_in = 1 and 2; its row function is run on the probe records listed "
        "(each edge and its two neighbours, 0, 12345, -2**31 and 2**31-1) and must "
        "agree with the model there; the output-domain claim is the member claim of the "
        "constructor's own output_domain (its carrier range and bounds)",
        bit_precise=("the MODEL's bin of every i32 record is in the code's output element domain "
                     "and every pair of datasets of length <= N at distance <= d_in under the "
                     "MODEL's row has outputs at distance <= map(d_in)",),
        assumed=("the code's row function is tied to the model only on the probe records "
                 "listed; other i32 records are covered by the hand proof (and random tests) "
                 "only",
                 "float and other integer records (NaN refused as an edge) are covered by the "
                 "proof and the tests only"),
        instances="edges (), (0,), (-5, 0, 7, 2**31-1); d_in 1 and 2",
    )
}  # fmt: skip
