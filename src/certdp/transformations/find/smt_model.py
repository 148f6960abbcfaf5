"""SMT model of ``make_find`` and its bounded theorem.

Model of one record of ``i32``: the position of the first category equal to it, or ``-1`` for
``None`` (an if-then-else chain over the categories).  Every obligation builds the real
constructor, calls its own map at ``d_in``, and runs its own function on the categories, their
neighbours and the ends of the i32 range, which must agree with the model;
``tests/prove/test_find_model.py`` checks the model against the code on random records.

The code is tied to the model only on those probe records; for the other records the
model stands for the code by the hand proof.  The output-domain claim is read from the
constructor's own ``output_domain`` (:func:`certdp.contracts.smt_domain.member_claim`).

Theorem, per list of categories, for the MODEL's row: every record's image is in the code's
output element domain, and neighbours at distance
``<= d_in`` map to outputs reached by the same edits, so ``d_out <= d_in``, the code's map
(:func:`certdp.contracts.smt.elementwise_cases`).
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_domain import member_claim

__all__ = ["find_record", "CATEGORIES", "obligations", "MODELLED"]

_SIZE = 3
_LOW, _HIGH = -(2**31), 2**31 - 1
#: Category lists checked (i32): none, one, and several including the range ends.
CATEGORIES = ((), (0,), (3, -1, _HIGH, _LOW))


def find_record(record, categories):
    """The model's image of ``record`` (a z3 Int): its position among ``categories``, -1 if
    absent (``None``)."""
    image = z3.IntVal(-1)
    for position in reversed(range(len(categories))):
        image = z3.If(record == categories[position], position, image)
    return image


def code_image(value) -> int:
    """The code's image as the model writes it (``None`` as -1)."""
    return -1 if value is None else value


def _probes(categories) -> list:
    around = {c + k for c in categories for k in (-1, 0, 1)} | {0, 1, 12345, _LOW, _HIGH}
    return sorted(v for v in around if _LOW <= v <= _HIGH)


def _instance(categories, metric: str, d_in: int):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_find import make_find

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    built = make_find(vector_domain(atom_domain(T="i32")), space_metric, list(categories))
    stated = built.map(d_in)

    def violation():
        if stated != d_in:
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        probes = _probes(categories)
        for record, image in zip(probes, built(probes)):
            expected = z3.simplify(find_record(z3.IntVal(record), categories))
            if expected.as_long() != code_image(image):
                return [(z3.BoolVal(True), lambda m, r=record, i=image: {"r": r, "code": i})]
        return elementwise_cases(
            lambda r: find_record(r, categories), lambda label: z3.Int(label),
            lambda r: z3.And(_LOW <= r, r <= _HIGH),
            lambda out: member_claim(built.output_domain.element_domain, out, none=-1), _SIZE, d_in, metric,
        )  # fmt: skip

    return Obligation(
        constructor="make_find",
        claim=f"i32 categories={list(categories)} {metric} d_in={d_in} len<={_SIZE}",
        format="i32", size=_SIZE, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_find" not in names:
        return []
    return [
        _instance(categories, metric, d_in)
        for categories in CATEGORIES
        for metric in ("symmetric", "insert_delete")
        for d_in in (1, 2)
    ]


MODELLED = {
    "make_find": [
        "transformations/find/make_find.py",
        "transformations/_cast/convert.py",
        "transformations/_rowmap/rowmap.py",
    ]
}

SCOPE = {
    "make_find": Scope(
        formats=("i32",),
        sizes=(_SIZE,),
        bound_to_code="the real make_find is built for each list of categories; its stability "
        "map is called at d_in = 1 and 2; its row function is run on the probe records listed "
        "(each category and its two neighbours, 0, 1, 12345, -2**31 and 2**31-1) and must agree with "
        "the model there; the output-domain claim is the member claim of the constructor's own "
        "output_domain (None, or its usize atom's range and bounds)",
        bit_precise=("the MODEL's image of every i32 record is in the code's output element "
                     "domain and every pair of datasets of length <= N at distance <= d_in under "
                     "the MODEL's row has outputs at distance <= map(d_in)",),
        assumed=("the code's row function is tied to the model only on the probe records "
                 "listed; other i32 records are covered by the hand proof (and random tests) "
                 "only",
                 "other element types (integers, bool, String) are covered by the proof and "
                 "the tests only",),
        instances="categories (), (0,), (3, -1, 2**31-1, -2**31); d_in 1 and 2",
    )
}  # fmt: skip
