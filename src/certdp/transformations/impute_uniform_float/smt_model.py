"""SMT model of ``make_impute_uniform_float`` for fixed draws, and its bounded theorem.

Model of one record, given the draw ``u`` (a float of the type with ``lower <= u <= upper``):
``u`` if the record is NaN, else the record (an IEEE if-then-else on ``fpIsNaN``).  Every
obligation builds the real constructor, calls its own map at ``d_in``, and runs its own
function on special records (kept bit for bit) and on NaN records (each draw must be a float
of the type, not NaN, within the bounds); ``tests/prove/test_impute_uniform_float_model.py``
checks the model against the code on random records.

Theorem, per type and bounds, for any fixed draw within the bounds used for every imputed
record (the coupling of the proof: neighbours' imputed records take the same draws): every
record's image is not NaN (the output element domain) and, when NaN, lies within the bounds;
neighbours at distance ``<= d_in`` map to outputs reached by the same edits, so
``d_out <= d_in``, the code's map (:func:`certdp.contracts.smt.elementwise_cases`).
"""

from __future__ import annotations

import math

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases, float_sort, float_value
from certdp.contracts.smt_code import Scope
from certdp.transformations.cast_default.smt_model import encode

__all__ = ["impute_record", "BOUNDS", "obligations", "MODELLED"]

_SIZE = 3
_DRAWS = 64
_LARGEST = 1.7976931348623157e308
#: (type, bounds) checked.
BOUNDS = (("f64", (-1.0, 2.5)), ("f32", (0.0, 2.0**-133)), ("f64", (-_LARGEST, _LARGEST)))
_PROBES = {
    "f64": [0.0, -0.0, math.inf, -math.inf, 1.5, 5e-324, 1e308],
    "f32": [0.0, -0.0, math.inf, 1.5, 1.401298464324817e-45],
}


def impute_record(record, draw):
    """The model's image of ``record`` (a z3 float) given the draw ``draw``."""
    return z3.If(z3.fpIsNaN(record), draw, record)


def _within(value, T, bounds):
    sort = float_sort(T)
    return z3.And(
        z3.Not(z3.fpIsNaN(value)),
        z3.fpLEQ(float_value(bounds[0], sort), value),
        z3.fpLEQ(value, float_value(bounds[1], sort)),
    )


def _instance(T: str, bounds, metric: str, d_in: int):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_impute_uniform_float import make_impute_uniform_float

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    domain = vector_domain(atom_domain(T=T, nan=True))
    built = make_impute_uniform_float(domain, space_metric, bounds)
    stated = built.map(d_in)
    sort = float_sort(T)
    draw = z3.FP("u", sort)

    def violation():
        if stated != d_in:
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        probes = _PROBES[T]
        for record, image in zip(probes, built(probes)):
            if not z3.is_true(z3.simplify(encode(record, T) == encode(float(image), T))):
                return [(z3.BoolVal(True), lambda m, r=record, i=image: {"r": r, "code": i})]
        for image in built([math.nan] * _DRAWS):
            inside = _within(encode(image, T), T, bounds) if type(image) is float else None
            if inside is None or not z3.is_true(z3.simplify(inside)):
                return [(z3.BoolVal(True), lambda m, i=image: {"draw": i})]
        cases = elementwise_cases(
            lambda r: impute_record(r, draw), lambda label: z3.FP(label, sort),
            lambda r: z3.BoolVal(True), lambda out: z3.Not(z3.fpIsNaN(out)), _SIZE, d_in, metric,
        )  # fmt: skip
        r = z3.FP("r_nan", sort)
        cases.append(
            (z3.And(z3.fpIsNaN(r), z3.Not(_within(impute_record(r, draw), T, bounds))),
             lambda m: {"u": m[draw]})
        )  # fmt: skip
        return [(z3.And(_within(draw, T, bounds), case), show) for case, show in cases]

    return Obligation(
        constructor="make_impute_uniform_float",
        claim=f"{T} bounds={bounds} {metric} d_in={d_in} len<={_SIZE}",
        format=T, size=_SIZE, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_impute_uniform_float" not in names:
        return []
    return [
        _instance(T, bounds, metric, 1)
        for T, bounds in BOUNDS
        for metric in ("symmetric", "insert_delete")
    ]


MODELLED = {
    "make_impute_uniform_float": [
        "transformations/impute_uniform_float/make_impute_uniform_float.py",
        "transformations/_cast/convert.py",
    ]
}

SCOPE = {
    "make_impute_uniform_float": Scope(
        formats=("f64", "f32"),
        sizes=(_SIZE,),
        bound_to_code="the real make_impute_uniform_float is built at each type and bounds, "
        "its own map is called at d_in, and its own function is run on special records (kept "
        f"bit for bit) and on {_DRAWS} NaN records (every draw a float within the bounds)",
        bit_precise=("for any fixed draw within the bounds: the image of every record, and "
                     "every pair of datasets of length <= N at distance <= d_in",),
        assumed=("the law of the draws (exactly the nearest float to a uniform real) and the "
                 "coupling of independent draws are covered by the proof and the tests only",
                 "SMT-LIB has one NaN per format: NaN payloads are covered by the proof only"),
        instances="f64 (-1, 2.5), f32 (0, 2**-133), f64 (-max, max); d_in 1",
    )
}  # fmt: skip
