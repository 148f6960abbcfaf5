"""SMT model of ``make_impute_constant`` and its bounded theorem.

Model of one record of a float atom domain (``constant`` if the record is NaN, else the
record's value, in make_impute_constant.py), compared with the real function at NaN, signed zeros, infinities and 1.5 in every obligation:
an IEEE if-then-else on ``fpIsNaN``.  ``tests/prove/test_impute_constant_model.py`` checks the
model against the code on random records, NaN, infinities and signed zeros included.

Theorem, instantiated per type and constant: every record's image is not NaN (the output element
domain), and neighbours at distance ``<= d_in`` map to outputs reached by the same edits, so
``d_out <= d_in``, the code's map (:func:`certdp.contracts.smt.elementwise_cases`).

Not modelled: vectors of options (``None`` imputed), which only the proof and the tests
cover.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases, float_sort, float_value
from certdp.contracts.smt_code import Scope

__all__ = ["impute_record", "obligations", "MODELLED"]

_SIZE = 3


def impute_record(record, constant):
    """The code's image of ``record``, a z3 float."""
    return z3.If(z3.fpIsNaN(record), constant, record)


_PROBES = (float("nan"), 0.0, -0.0, 1.5, float("inf"), float("-inf"))


def _cast(T: str, value: float):
    import numpy as np

    return np.float32(value) if T == "f32" else value


def _encode(value: float, sort):
    return z3.fpNaN(sort) if value != value else float_value(value, sort)


def _instance(T: str, constant: float, metric: str, d_in: int):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_impute_constant import make_impute_constant

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    built = make_impute_constant(vector_domain(atom_domain(T=T, nan=True)), space_metric, constant)
    stated = built.map(d_in)
    sort = float_sort(T)
    target = float_value(constant, sort)

    def violation():
        if stated != d_in:
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        # The model's row is the code's row at the special records (the real function is run).
        images = built([_cast(T, v) for v in _PROBES])
        for record, image in zip(_PROBES, images):
            expected = z3.simplify(impute_record(_encode(record, sort), target))
            if not z3.is_true(z3.simplify(expected == _encode(float(image), sort))):
                return [(z3.BoolVal(True), lambda m, r=record, i=image: {"r": r, "code": i})]
        return elementwise_cases(
            lambda r: impute_record(r, target), lambda label: z3.FP(label, sort),
            lambda r: z3.BoolVal(True), lambda out: z3.Not(z3.fpIsNaN(out)), _SIZE, d_in, metric,
        )  # fmt: skip

    return Obligation(
        constructor="make_impute_constant",
        claim=f"{T} constant={constant!r} {metric} d_in={d_in} len<={_SIZE}",
        format=T, size=_SIZE, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_impute_constant" not in names:
        return []
    result = []
    for T in ("f32", "f64"):
        for constant in (0.0, -0.0, 1.5, float("inf")):
            for metric in ("symmetric", "insert_delete"):
                for d_in in (1, 2):
                    result.append(_instance(T, constant, metric, d_in))
    return result


MODELLED = {
    "make_impute_constant": [
        "transformations/impute_constant/make_impute_constant.py",
        "transformations/_rowmap/rowmap.py",
    ]
}

SCOPE = {
    "make_impute_constant": Scope(
        formats=("f32", "f64"),
        sizes=(_SIZE,),
        bound_to_code="the real make_impute_constant is built at each type and constant, its own "
        "map is called at d_in, and its own function is run on NaN, +-0.0, +-inf and 1.5 and "
        "must agree with the modelled row bit for bit",
        bit_precise=("the image of every record, NaN, infinities and signed zeros included, and "
                     "every pair of datasets of length <= N at distance <= d_in",),
        assumed=("SMT-LIB has one NaN per format, so NaNs of different payloads (one record by "
                 "the definitions) are not told apart here; the proof covers them",),
        instances="constants 0.0, -0.0, 1.5, inf; d_in 1 and 2",
    )
}  # fmt: skip
