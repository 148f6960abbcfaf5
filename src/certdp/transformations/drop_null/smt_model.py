"""Bounded model of ``make_drop_null`` and its theorem on small instances.

Model of one record: it is kept exactly when it is not null (``fpIsNaN`` for float elements,
``is(none)`` for option elements of i32).  Every obligation builds the real constructor, calls
its own map at ``d_in``, and runs its own function: on special records (which it must keep or
drop as the model says) and on every dataset of length ``<= N`` over a small alphabet of
records (nulls, signed zeros, values), where for every pair of datasets at distance ``<= d_in``
the outputs must be at distance ``<= map(d_in)`` (distances computed exactly, with the
definitions' same-record relation).  The SMT part checks that no record the model keeps is null
and that each is in the code's own output element domain.  The code is tied to the model only
on those probe records and alphabet datasets; other records rest on the hand proof.  ``tests/prove/test_drop_null_model.py`` checks the model against
the code on random records.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import float_sort
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_domain import member_claim
from certdp.transformations.cast.smt_model import encode_option, option_sort
from certdp.transformations.cast_default.smt_model import encode

__all__ = ["kept_record", "KINDS", "encode_record", "obligations", "MODELLED"]

_SIZE = 3
KINDS = ("f64", "f32", "option-i32")
_PROBES = {
    "f64": [math.nan, 0.0, -0.0, math.inf, -math.inf, 1.5, 5e-324],
    "f32": [math.nan, 0.0, -0.0, math.inf, 1.5, 1.401298464324817e-45],
    "option-i32": [None, 0, -1, 7, 2**31 - 1, -(2**31)],
}
#: The alphabets of the exhaustive small instances.
_ALPHABET = {
    "f64": [math.nan, 0.0, -0.0, 1.5],
    "f32": [math.nan, -0.0, 1.5],
    "option-i32": [None, 0, 1],
}


def kept_record(record, kind: str):
    """The model's image of ``record`` (a z3 term of the element kind): is it kept?"""
    if kind == "option-i32":
        return option_sort("i32").is_some(record)
    return z3.Not(z3.fpIsNaN(record))


def encode_record(value, kind: str):
    return encode_option(value, "i32") if kind == "option-i32" else encode(value, kind)


def _null(record, kind: str):
    if kind == "option-i32":
        return option_sort("i32").is_none(record)
    return z3.fpIsNaN(record)


def _key(value):
    """The same-record class of a value (all NaNs alike, floats by bit pattern)."""
    if value is None:
        return ("none",)
    if isinstance(value, float):
        return ("nan",) if math.isnan(value) else ("float", value.hex())
    return (type(value).__name__, value)


def _symmetric(a, b) -> int:
    ca, cb = Counter(map(_key, a)), Counter(map(_key, b))
    return sum(((ca - cb) + (cb - ca)).values())


def _insert_delete(a, b) -> int:
    ka, kb = list(map(_key, a)), list(map(_key, b))
    common = [[0] * (len(kb) + 1) for _ in range(len(ka) + 1)]
    for i, x in enumerate(ka):
        for j, y in enumerate(kb):
            common[i + 1][j + 1] = (
                common[i][j] + 1 if x == y else max(common[i][j + 1], common[i + 1][j])
            )
    return len(ka) + len(kb) - 2 * common[len(ka)][len(kb)]


def _element(kind: str):
    if kind == "option-i32":
        return lambda label: z3.Const(label, option_sort("i32"))
    return lambda label: z3.FP(label, float_sort(kind))


def _instance(kind: str, metric: str, d_in: int):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance
    from certdp.core.option_domain import option_domain

    from .make_drop_null import make_drop_null

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    element = option_domain(atom_domain(T="i32")) if kind == "option-i32" else atom_domain(T=kind)
    built = make_drop_null(vector_domain(element), space_metric)
    stated = built.map(d_in)
    distance = _symmetric if metric == "symmetric" else _insert_delete

    def violation():
        for record in _PROBES[kind]:
            expected = z3.simplify(kept_record(encode_record(record, kind), kind))
            if z3.is_true(expected) != (len(built([record])) == 1):
                return [(z3.BoolVal(True), lambda m, r=record: {"r": r})]
        datasets = [
            list(data)
            for length in range(_SIZE + 1)
            for data in itertools.product(_ALPHABET[kind], repeat=length)
        ]
        images = [built(data) for data in datasets]
        for (x, fx), (y, fy) in itertools.product(zip(datasets, images), repeat=2):
            if distance(x, y) <= d_in and not distance(fx, fy) <= stated:
                return [(z3.BoolVal(True), lambda m, x=x, y=y: {"x": x, "x_prime": y})]
        r = _element(kind)("r")
        value = option_sort("i32").value(r) if kind == "option-i32" else r
        outside = z3.Not(member_claim(built.output_domain.element_domain, value))
        kept = kept_record(r, kind)
        return [
            (z3.And(kept, _null(r, kind)), lambda m: {"r": m[r]}),
            (z3.And(kept, outside), lambda m: {"r": m[r], "outside": "output domain"}),
        ]

    return Obligation(
        constructor="make_drop_null",
        claim=f"{kind} {metric} d_in={d_in} len<={_SIZE}",
        format=kind.removeprefix("option-"), size=_SIZE, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_drop_null" not in names:
        return []
    return [
        _instance(kind, metric, d_in)
        for kind in KINDS
        for metric in ("symmetric", "insert_delete")
        for d_in in (1, 2)
    ]


MODELLED = {
    "make_drop_null": [
        "transformations/drop_null/make_drop_null.py",
        "transformations/_cast/convert.py",
        "core/option_domain.py",
    ]
}

SCOPE = {
    "make_drop_null": Scope(
        formats=("f64", "f32", "i32"),
        sizes=(_SIZE,),
        bound_to_code="the real make_drop_null is built for each element kind; its stability "
        "map is called at d_in = 1 and 2; its row function is run on the probe records listed "
        "(f64: NaN, +-0.0, +-inf, 1.5, 5e-324; f32: NaN, 0.0, -0.0, inf, 1.5, the least "
        "subnormal; option(i32): None, 0, -1, 7, -2**31, 2**31-1), kept or dropped as the model "
        "says, and on every dataset of length <= N over the small alphabets below, where every "
        "pair at distance <= d_in must have outputs at distance <= map(d_in); the output-domain "
        "claim is the member claim of the constructor's own output_domain",
        bit_precise=("the MODEL keeps no null record and every record the MODEL keeps is in "
                     "the code's output element domain, for every record of f64, f32 and "
                     "option(i32) (SMT)",),
        assumed=("the code's row function is tied to the model only on the probe records and "
                 "alphabet datasets listed; other records are covered by the hand proof (and "
                 "random tests) only",
                 "stability is checked exhaustively on datasets over the alphabets "
                 "{NaN, 0.0, -0.0, 1.5} (f64), {NaN, -0.0, 1.5} (f32), {None, 0, 1} "
                 "(option i32) only; the proof covers all records",
                 "option domains of other types are covered by the proof and the tests only"),
        instances="d_in 1 and 2",
    )
}  # fmt: skip
