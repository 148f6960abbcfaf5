"""SMT model of ``make_index`` and its bounded theorem.

Model of one ``usize`` record: the category at that position, or ``null`` past the end (an
if-then-else chain over the categories).  Every obligation builds the real constructor, calls
its own map at ``d_in``, and runs its own function on the probe positions (each table
position, the two past the end and the largest usize), which must agree with the model;
``tests/prove/test_index_model.py`` checks the model against the code on random records.

The code is tied to the model only on those probe records; for the other records the
model stands for the code by the hand proof.  The output-domain claim is read from the
constructor's own ``output_domain`` (:func:`certdp.contracts.smt_domain.member_claim`).

Theorem, per table, for the MODEL's row: every record's image is in the code's output
element domain,
and neighbours at distance ``<= d_in`` map to outputs reached by the same edits, so
``d_out <= d_in``, the code's map (:func:`certdp.contracts.smt.elementwise_cases`).
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_domain import member_claim

__all__ = ["index_record", "TABLES", "obligations", "MODELLED"]

_SIZE = 3
_USIZE = 2**64 - 1
_LOW, _HIGH = -(2**31), 2**31 - 1
#: (categories, null) checked, all i32: an empty table, and one with the range ends.
TABLES = (((), 7), ((10, -3, _HIGH, _LOW), 0))


def index_record(record, categories, null):
    """The model's image of ``record`` (a z3 Int): ``categories[record]``, ``null`` past the
    end."""
    image = z3.IntVal(null)
    for position in reversed(range(len(categories))):
        image = z3.If(record == position, categories[position], image)
    return image


def _probes(categories) -> list:
    return list(range(len(categories) + 2)) + [12345, _USIZE]


def _instance(categories, null, metric: str, d_in: int):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_index import make_index

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    domain = vector_domain(atom_domain(T="usize"))
    built = make_index(domain, space_metric, list(categories), null, TOA="i32")
    stated = built.map(d_in)

    def violation():
        if stated != d_in:
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        probes = _probes(categories)
        for record, image in zip(probes, built(probes)):
            if z3.simplify(index_record(z3.IntVal(record), categories, null)).as_long() != image:
                return [(z3.BoolVal(True), lambda m, r=record, i=image: {"r": r, "code": i})]
        return elementwise_cases(
            lambda r: index_record(r, categories, null), lambda label: z3.Int(label),
            lambda r: z3.And(0 <= r, r <= _USIZE),
            lambda out: member_claim(built.output_domain.element_domain, out), _SIZE, d_in, metric,
        )  # fmt: skip

    return Obligation(
        constructor="make_index",
        claim=f"usize->i32 categories={list(categories)} null={null} {metric} d_in={d_in} "
        f"len<={_SIZE}",
        format="usize", size=_SIZE, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_index" not in names:
        return []
    return [
        _instance(categories, null, metric, d_in)
        for categories, null in TABLES
        for metric in ("symmetric", "insert_delete")
        for d_in in (1, 2)
    ]


MODELLED = {
    "make_index": [
        "transformations/index/make_index.py",
        "transformations/_cast/convert.py",
        "transformations/_rowmap/rowmap.py",
    ]
}

SCOPE = {
    "make_index": Scope(
        formats=("usize", "i32"),
        sizes=(_SIZE,),
        bound_to_code="the real make_index is built for each table (TOA i32); its stability map "
        "is called at d_in = 1 and 2; its row function is run on the probe positions listed "
        "(0 .. len(table)+1, 12345 and 2**64-1) and must agree with the model there; the "
        "output-domain claim is the member claim of the constructor's own output_domain (its "
        "i32 atom's range and bounds)",
        bit_precise=("the MODEL's image of every usize record is in the code's output element "
                     "domain and every pair of datasets of length <= N at distance <= d_in "
                     "under the MODEL's row has outputs at distance <= map(d_in)",),
        assumed=("the code's row function is tied to the model only on the probe positions "
                 "listed; other positions are covered by the hand proof (and random tests) "
                 "only",
                 "other output types (floats, bool, String) are covered by the proof and the "
                 "tests only",),
        instances="tables () with null 7 and (10, -3, 2**31-1, -2**31) with null 0; "
        "d_in 1 and 2",
    )
}  # fmt: skip
