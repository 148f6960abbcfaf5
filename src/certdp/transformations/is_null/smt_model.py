"""SMT model of ``make_is_null`` and its bounded theorem.

Model of one record: ``fpIsNaN`` for float elements (NaN the null), ``is(none)`` for option
elements of i32 (an SMT datatype ``none | some(bits)``).  Every obligation runs the real
function on special records and requires the model to agree with it;
``tests/prove/test_is_null_model.py`` checks the model against the code on random records.

Theorem, per element kind: neighbours at distance ``<= d_in`` map to outputs reached by the same
edits, so ``d_out <= d_in``, the code's map (:func:`certdp.contracts.smt.elementwise_cases`).
"""

from __future__ import annotations

import math

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases, float_sort
from certdp.contracts.smt_code import Scope
from certdp.transformations.cast.smt_model import encode_option, option_sort
from certdp.transformations.cast_default.smt_model import encode

__all__ = ["null_record", "KINDS", "obligations", "MODELLED"]

_SIZE = 3
#: Element kinds checked: float atom domains, and option domains of i32.
KINDS = ("f64", "f32", "option-i32")
_PROBES = {
    "f64": [math.nan, 0.0, -0.0, math.inf, -math.inf, 1.5, 5e-324],
    "f32": [math.nan, 0.0, -0.0, math.inf, 1.5, 1.401298464324817e-45],
    "option-i32": [None, 0, -1, 2**31 - 1, -(2**31)],
}


def null_record(record, kind: str):
    """The code's image of ``record`` (a z3 term of the element kind): is it null?"""
    if kind == "option-i32":
        return option_sort("i32").is_none(record)
    return z3.fpIsNaN(record)


def encode_record(value, kind: str):
    return encode_option(value, "i32") if kind == "option-i32" else encode(value, kind)


def _element(kind: str):
    if kind == "option-i32":
        return lambda label: z3.Const(label, option_sort("i32"))
    return lambda label: z3.FP(label, float_sort(kind))


def _instance(kind: str, metric: str, d_in: int):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance
    from certdp.core.option_domain import option_domain

    from .make_is_null import make_is_null

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    element = option_domain(atom_domain(T="i32")) if kind == "option-i32" else atom_domain(T=kind)
    built = make_is_null(vector_domain(element), space_metric)
    stated = built.map(d_in)

    def violation():
        if stated != d_in:
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        probes = _PROBES[kind]
        for record, image in zip(probes, built(probes)):
            expected = z3.simplify(null_record(encode_record(record, kind), kind))
            if not z3.is_true(z3.simplify(expected == z3.BoolVal(image))):
                return [(z3.BoolVal(True), lambda m, r=record, i=image: {"r": r, "code": i})]
        return elementwise_cases(
            lambda r: null_record(r, kind), _element(kind),
            lambda r: z3.BoolVal(True), lambda out: z3.BoolVal(True), _SIZE, d_in, metric,
        )  # fmt: skip

    return Obligation(
        constructor="make_is_null",
        claim=f"{kind} {metric} d_in={d_in} len<={_SIZE}",
        format=kind.removeprefix("option-"), size=_SIZE, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_is_null" not in names:
        return []
    return [
        _instance(kind, metric, 1) for kind in KINDS for metric in ("symmetric", "insert_delete")
    ]


MODELLED = {
    "make_is_null": [
        "transformations/is_null/make_is_null.py",
        "transformations/_cast/convert.py",
        "transformations/_rowmap/rowmap.py",
        "core/option_domain.py",
    ]
}

SCOPE = {
    "make_is_null": Scope(
        formats=("f64", "f32", "i32"),
        sizes=(_SIZE,),
        bound_to_code="the real make_is_null is built for each element kind, its own map is "
        "called at d_in, and its own function is run on special records (NaN, +-0, +-inf, "
        "subnormals; None and the i32 range ends) and must agree with the model",
        bit_precise=("null-ness of every record of f64, f32 and option(i32), and every pair "
                     "of datasets of length <= N at distance <= d_in",),
        assumed=("option domains of other types are covered by the proof and the tests only",
                 "SMT-LIB has one NaN per format: NaN payloads are covered by the proof only"),
        instances="d_in = 1",
    )
}  # fmt: skip
