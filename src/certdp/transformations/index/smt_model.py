"""SMT model of ``make_index`` and its bounded theorem.

Model of one ``usize`` record: the category at that position, or ``null`` past the end (an
if-then-else chain over the categories).  Every obligation builds the real constructor, calls
its own map at ``d_in``, and runs its own function on every position, the first ones past the
end and the largest usize, which must agree with the model;
``tests/prove/test_index_model.py`` checks the model against the code on random records.

Theorem, per table: every record's image is a value of ``i32`` (the output element domain),
and neighbours at distance ``<= d_in`` map to outputs reached by the same edits, so
``d_out <= d_in``, the code's map (:func:`certdp.contracts.smt.elementwise_cases`).
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases
from certdp.contracts.smt_code import Scope

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
    return list(range(len(categories) + 2)) + [_USIZE]


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
            lambda out: z3.And(_LOW <= out, out <= _HIGH), _SIZE, d_in, metric,
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
        bound_to_code="the real make_index is built for each table (TOA i32), its own map is "
        "called at d_in, and its own function is run on every position, two past the end and "
        "the largest usize, and must agree with the model",
        bit_precise=("the image of every usize record and every pair of datasets of length "
                     "<= N at distance <= d_in",),
        assumed=("other output types (floats, bool, String) are covered by the proof and the "
                 "tests only",),
        instances="tables () with null 7 and (10, -3, 2**31-1, -2**31) with null 0; "
        "d_in 1 and 2",
    )
}  # fmt: skip
