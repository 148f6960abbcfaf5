"""The shared shape of the cast SMT models (make_cast_default, make_cast_inherent, make_cast):
the special records each obligation runs the real function on, the z3 element of each source
type, and the obligation itself, one per (source type, TOA, metric): the real constructor's map
at ``d_in`` must be ``d_in``, its function must agree with the modelled cast on every special
record, and neighbours at distance ``<= d_in`` (datasets of length ``<= SIZE``) must map to
outputs reached by the same edits (:func:`certdp.contracts.smt.elementwise_cases`).  The map is
also called at every ``d`` of :data:`MAP_D_INS` and must return ``d`` there: a map that is right
at ``d_in = 1`` only is refuted (at those values; other distances are not called).  A call of
the map that raises is a counterexample."""

from __future__ import annotations

import struct

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases, float_sort
from certdp.core.types import carrier

__all__ = [
    "SIZE",
    "MAP_D_INS",
    "TEXT_PROBES",
    "probes",
    "element",
    "cast_instance",
    "cast_obligations",
]

#: The largest dataset length of the stability cases.
SIZE = 3

#: The distances at which the real map is called besides the obligation's own ``d_in``.
MAP_D_INS = (0, 1, 2, 3, 7, 10, 100, 1000, 2**31, 2**62, 10**30)

#: Texts probing Rust's integer grammar (signs, spaces, exponents, radix prefixes, non-ASCII
#: digits, the range ends of i32).
TEXT_PROBES = ["12", "", " ", " 1", "1 ", "+7", "-0", "-", "+", "+-1", "1e3", "1.5", "0x10", "1_000",
               "\u0661", "\uff11", "00012", "2147483647", "2147483648", "-2147483648",
               "-2147483649", "4294967295", "4294967296", "true", "nan"]  # fmt: skip


def probes(source: str) -> list:
    """The special records of ``source``: NaN, +-0, +-inf, range edges, rounding ties; texts."""
    if source == "String":
        return TEXT_PROBES
    if source == "bool":
        return [True, False]
    if source == "i64":
        return [0, 1, -1, 2**31, -(2**31) - 1, 2**53 + 1, 16777217, 2**63 - 1, -(2**63)]
    values = [float("nan"), 0.0, -0.0, float("inf"), float("-inf"), 1.9, -1.9, 0.1,
              2147483647.5, -2147483648.5, 2147483648.0, 4294967295.5, -1.0, 1e300,
              3.4028235677973366e38, 9.223372036854775807e18]  # fmt: skip
    if source == "f32":
        values = [struct.unpack("<f", struct.pack("<f", v))[0] for v in values if abs(v) < 3e38]
    return values


def element(source: str):
    """A function of a label giving a z3 constant of the sort of ``source``."""
    S = carrier(source)
    if source == "bool":
        return z3.Bool
    if source == "String":
        return z3.String
    if S.is_float:
        return lambda label: z3.FP(label, float_sort(source))
    return lambda label: z3.BitVec(label, S.bits)


def cast_instance(name: str, make, model, agrees, encode, source, target, metric, d_in):
    """The obligation of ``name`` (built by ``make(input_domain, input_metric, TOA=target)``)
    for one pair of types and metric: ``model(record, source, target)`` is the modelled image
    of a z3 record, ``agrees(expected, image, target)`` whether the code's image equals it,
    ``encode(value, source)`` a Python record as a z3 constant."""
    import numpy as np

    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    built = make(vector_domain(atom_domain(T=source)), space_metric, TOA=target)

    def violation():
        for d in sorted({d_in, *MAP_D_INS}):
            try:
                stated = built.map(d)
            except Exception as error:  # a map that raises here is refuted
                shown = f"{type(error).__name__}: {error}"
                return [(z3.BoolVal(True), lambda m, d=d, e=shown: {"raised": e, "d_in": d})]
            if stated != d or type(stated) is not int:
                return [(z3.BoolVal(True), lambda m, d=d, s=stated: {"map": s, "d_in": d})]
        records = probes(source)
        dtype = {"f32": np.float32, "f64": np.float64, "i64": np.int64, "bool": np.bool_,
                 "String": object}[source]  # fmt: skip
        images = built(np.array(records, dtype=dtype))
        for record, image in zip(records, images):
            expected = z3.simplify(model(encode(record, source), source, target))
            if not agrees(expected, image, target):
                return [(z3.BoolVal(True), lambda m, r=record, i=image: {"r": r, "code": i})]
        return elementwise_cases(
            lambda r: model(r, source, target), element(source),
            lambda r: z3.BoolVal(True), lambda out: z3.BoolVal(True), SIZE, d_in, metric,
        )  # fmt: skip

    return Obligation(
        constructor=name,
        claim=f"{source}->{target} {metric} d_in={d_in} len<={SIZE}, map(d) = d at d in "
        f"{MAP_D_INS}",
        format=source, size=SIZE, violation=violation,
    )  # fmt: skip


def cast_obligations(name: str, names, pairs, instance) -> list[Obligation]:
    """``instance(source, target, metric, 1)`` for every pair of ``pairs`` and both metrics,
    or nothing when ``names`` leaves ``name`` out."""
    if names is not None and name not in names:
        return []
    return [
        instance(source, target, metric, 1)
        for source, target in pairs
        for metric in ("symmetric", "insert_delete")
    ]
