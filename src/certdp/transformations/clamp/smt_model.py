"""SMT model of ``make_clamp`` and its bounded theorem.

Model of one record (``_clamped`` / ``_clamped_record`` in make_clamp.py): ``lower`` if
``r < lower``, ``upper`` if ``r > upper``, else ``r`` itself, with the comparisons of the
carrier type: signed or unsigned bit-vector order for integers, IEEE order for floats (every
non-NaN value, infinities included; ``-0.0`` and ``+0.0`` compare equal, so a zero record stays
as it is).  ``tests/prove/test_elementwise_models.py`` checks the model against the code bit for
bit on random data.

Theorem, instantiated per type and bounds: every record of the input domain is clamped into
``[lower, upper]`` (and is not NaN); and, the transformation being elementwise, the clamped
neighbour of a clamped dataset is reached by the same ``<= d_in`` edits
(:func:`certdp.contracts.smt.elementwise_cases`), so ``d_out <= d_in`` = the code's map.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import (
    elementwise_cases,
    float_sort,
    float_value,
    int_bounds,
    int_value,
)
from certdp.contracts.smt_code import Scope
from certdp.core.types import INTEGER_TYPES, carrier

__all__ = ["clamp_record", "obligations", "MODELLED"]

_SIZE = 3


def clamp_record(record, lower, upper, T):
    """The clamped record; ``lower``/``upper`` are z3 values of ``T``'s sort."""
    if T.is_float:
        below, above = z3.fpLT(record, lower), z3.fpGT(record, upper)
    elif T.is_signed:
        below, above = record < lower, record > upper
    else:
        below, above = z3.ULT(record, lower), z3.UGT(record, upper)
    return z3.If(below, lower, z3.If(above, upper, record))


def _cases(T):
    if T.is_float:
        return [(-1.5, 2.25), (0.0, 0.0), (-0.0, 1.0), (-3.0e38, 3.0e38)]
    if T.is_signed:
        return [(-3, 5), (-T.max - 1, T.max), (7, 7)]
    return [(0, 5), (0, T.max), (9, 200)]


def _instance(T, lower, upper, metric: str, d_in: int):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_clamp import make_clamp

    element = atom_domain(T=T.name, nan=False) if T.is_float else atom_domain(T=T.name)
    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    if T.name == "f32":
        import numpy as np

        bounds = (np.float32(lower), np.float32(upper))
        lower, upper = float(bounds[0]), float(bounds[1])
    else:
        bounds = (lower, upper)
    built = make_clamp(vector_domain(element), space_metric, bounds)
    stated = built.map(d_in)

    if T.is_float:
        sort = float_sort(T.name)
        lo, hi = float_value(lower, sort), float_value(upper, sort)

        def element_of(label):
            return z3.FP(label, sort)

        def inside(record):
            return z3.Not(z3.fpIsNaN(record))

        def output_inside(record):
            return z3.And(z3.Not(z3.fpIsNaN(record)), z3.fpLEQ(lo, record), z3.fpLEQ(record, hi))

    else:
        lo, hi = int_value(lower, T.bits), int_value(upper, T.bits)

        def element_of(label):
            return z3.BitVec(label, T.bits)

        def inside(record):
            return z3.BoolVal(True)

        def output_inside(record):
            return int_bounds(record, T, lower, upper)

    def violation():
        if stated != d_in:  # the code's map is d_in -> d_in; anything else is not this theorem
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        return elementwise_cases(
            lambda r: clamp_record(r, lo, hi, T), element_of, inside, output_inside,
            _SIZE, d_in, metric,
        )  # fmt: skip

    return Obligation(
        constructor="make_clamp",
        claim=f"{T.name} bounds=({lower}, {upper}) {metric} d_in={d_in} len<={_SIZE}",
        format=T.name, size=_SIZE, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_clamp" not in names:
        return []
    result = []
    for name in (*INTEGER_TYPES, "f32", "f64"):
        T = carrier(name)
        for lower, upper in _cases(T):
            for metric in ("symmetric", "insert_delete"):
                result.append(_instance(T, lower, upper, metric, 1))
    return result


MODELLED = {
    "make_clamp": [
        "transformations/clamp/make_clamp.py",
        "core/domains.py",
    ]
}

SCOPE = {
    "make_clamp": Scope(
        formats=("i8", "i16", "i32", "i64", "i128", "u8", "u16", "u32", "u64", "u128", "f32",
                 "f64"),
        sizes=(_SIZE,),
        bound_to_code="the real make_clamp is built at each type and bounds, and its own map is "
        "called at d_in",
        bit_precise=("the clamp of every record of each type (bit-vectors, IEEE) and every pair "
                     "of datasets of length <= N at distance <= d_in",),
    )
}  # fmt: skip
