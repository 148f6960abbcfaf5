"""SMT model of ``make_is_equal`` and its bounded theorem.

Model of one record (``bool(element == value)`` in make_is_equal.py): bit-vector equality for
integers; IEEE equality for floats (``fpEQ``: NaN equals nothing, ``-0.0`` equals ``+0.0``),
which is what Python's ``==`` computes on floats and numpy float32 scalars; equality of
booleans.  ``tests/prove/test_elementwise_models.py`` checks the model against the code on
random data, NaN, infinities and signed zeros included.

Theorem, instantiated per type and value: the output of every record is a boolean, and, the
transformation being elementwise, neighbours at distance ``<= d_in`` map to outputs reached by
the same edits, so ``d_out <= d_in``, the code's map (:func:`certdp.contracts.smt.elementwise_cases`).
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases, float_sort, float_value, int_value
from certdp.contracts.smt_code import Scope
from certdp.core.types import INTEGER_TYPES, carrier

__all__ = ["is_equal_record", "obligations", "MODELLED"]

_SIZE = 3


def is_equal_record(record, value, T):
    """``record == value`` as the code compares them, a z3 boolean."""
    if T.is_float:
        return z3.fpEQ(record, value)
    return record == value


def _values(T):
    if T.name == "bool":
        return [True, False]
    if T.is_float:
        return [0.0, -0.0, 1.5, float("inf"), float("nan")]
    return [0, T.max, T.min]


def _instance(T, value, metric: str, d_in: int):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    from .make_is_equal import make_is_equal

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    argument = value
    if T.name == "f32":
        import numpy as np

        argument = np.float32(value)
    built = make_is_equal(vector_domain(atom_domain(T=T.name)), space_metric, argument)
    stated = built.map(d_in)
    if T.is_float:
        sort = float_sort(T.name)
        target = float_value(value, sort) if value == value else z3.fpNaN(sort)

        def element_of(label):
            return z3.FP(label, sort)

    elif T.name == "bool":
        target = z3.BoolVal(value)

        def element_of(label):
            return z3.Bool(label)

    else:
        target = int_value(value, T.bits)

        def element_of(label):
            return z3.BitVec(label, T.bits)

    def violation():
        if stated != d_in:
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        return elementwise_cases(
            lambda r: is_equal_record(r, target, T), element_of, lambda r: z3.BoolVal(True),
            lambda out: z3.Or(out, z3.Not(out)), _SIZE, d_in, metric,
        )  # fmt: skip

    return Obligation(
        constructor="make_is_equal",
        claim=f"{T.name} value={value!r} {metric} d_in={d_in} len<={_SIZE}",
        format=T.name, size=_SIZE, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_is_equal" not in names:
        return []
    result = []
    for name in (*INTEGER_TYPES, "f32", "f64", "bool"):
        T = carrier(name)
        for value in _values(T):
            for metric in ("symmetric", "insert_delete"):
                result.append(_instance(T, value, metric, 1))
    return result


MODELLED = {"make_is_equal": ["transformations/is_equal/make_is_equal.py", "core/domains.py"]}

SCOPE = {
    "make_is_equal": Scope(
        formats=("bool", "integer types", "f32", "f64"),
        sizes=(_SIZE,),
        bound_to_code="the real make_is_equal is built at each type and value, and its own map "
        "is called at d_in",
        bit_precise=("the comparison of every record (bit-vectors, IEEE equality) and every pair "
                     "of datasets of length <= N at distance <= d_in",),
    )
}  # fmt: skip
