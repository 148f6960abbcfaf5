"""SMT model of ``make_impute_constant`` and its bounded theorem.

Model of one record of a float atom domain (``constant`` if the record is NaN, else the
record's value, in make_impute_constant.py), compared with the real function at NaN, signed zeros, infinities and 1.5 in every obligation:
an IEEE if-then-else on ``fpIsNaN``.  ``tests/prove/test_impute_constant_model.py`` checks the
model against the code on random records, NaN, infinities and signed zeros included.

The code is tied to the model only on those probe records; for the other records the
model stands for the code by the hand proof.  The output-domain claim is read from the
constructor's own ``output_domain`` (:func:`certdp.contracts.smt_domain.member_claim`).

Theorem, instantiated per type and constant, for the MODEL's row: every record's image is in
the code's output element domain (not NaN), and neighbours at distance ``<= d_in`` map to outputs reached by the same edits, so
``d_out <= d_in``, the code's map (:func:`certdp.contracts.smt.elementwise_cases`).

Vectors of options (make_cast's output) are modelled for ``option(i32)`` and ``option(f64)``
(records of the SMT datatype ``none | some(value)``): the image is the constant for ``none``
and, for f64, for ``some(NaN)``, the value otherwise; the same obligations (real function on
special records, real map, output element domain, elementwise stability) are checked.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import elementwise_cases, float_sort, float_value
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_domain import member_claim
from certdp.core.types import carrier
from certdp.transformations.cast.smt_model import encode_option, option_sort
from certdp.transformations.cast_default.smt_model import encode

__all__ = ["impute_record", "impute_option", "OPTION_PROBES", "obligations", "MODELLED"]

_SIZE = 3


def impute_record(record, constant):
    """The code's image of ``record``, a z3 float."""
    return z3.If(z3.fpIsNaN(record), constant, record)


_PROBES = (float("nan"), 0.0, -0.0, 1.5, float("inf"), float("-inf"))
#: Special records of the option kinds (inner type -> records).
OPTION_PROBES = {
    "i32": (None, 0, -1, 7, 2**31 - 1, -(2**31)),
    "f64": (None, float("nan"), 0.0, -0.0, float("inf"), 5e-324),
}
#: Constants of the option kinds.
_OPTION_CONSTANTS = {"i32": (0, -(2**31)), "f64": (-0.0, 1.5)}


def impute_option(record, constant, inner: str):
    """The code's image of an option ``record`` (a z3 datatype term) of ``inner``."""
    option = option_sort(inner)
    null = option.is_none(record)
    if inner == "f64":
        null = z3.Or(null, z3.fpIsNaN(option.value(record)))
    return z3.If(null, constant, option.value(record))


def _option_instance(inner: str, constant, metric: str, d_in: int):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import insert_delete_distance, symmetric_distance
    from certdp.core.option_domain import option_domain

    from .make_impute_constant import make_impute_constant

    space_metric = symmetric_distance() if metric == "symmetric" else insert_delete_distance()
    domain = vector_domain(option_domain(atom_domain(T=inner)))
    built = make_impute_constant(domain, space_metric, constant)
    stated = built.map(d_in)
    target = encode(constant, inner)

    def violation():
        if stated != d_in:
            return [(z3.BoolVal(True), lambda m: {"map": stated, "d_in": d_in})]
        probes = list(OPTION_PROBES[inner])
        for record, image in zip(probes, built(probes)):
            expected = z3.simplify(impute_option(encode_option(record, inner), target, inner))
            if not carrier(inner).contains(image) or not z3.is_true(
                z3.simplify(expected == encode(image, inner))
            ):
                return [(z3.BoolVal(True), lambda m, r=record, i=image: {"r": r, "code": i})]

        def output_inside(out):
            return member_claim(built.output_domain.element_domain, out)

        return elementwise_cases(
            lambda r: impute_option(r, target, inner),
            lambda label: z3.Const(label, option_sort(inner)),
            lambda r: z3.BoolVal(True), output_inside, _SIZE, d_in, metric,
        )  # fmt: skip

    return Obligation(
        constructor="make_impute_constant",
        claim=f"option-{inner} constant={constant!r} {metric} d_in={d_in} len<={_SIZE}",
        format=inner, size=_SIZE, violation=violation,
    )  # fmt: skip


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
            lambda r: z3.BoolVal(True),
            lambda out: member_claim(built.output_domain.element_domain, out), _SIZE, d_in, metric,
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
    for inner, constants in _OPTION_CONSTANTS.items():
        for constant in constants:
            for metric in ("symmetric", "insert_delete"):
                result.append(_option_instance(inner, constant, metric, 1))
    return result


MODELLED = {
    "make_impute_constant": [
        "transformations/impute_constant/make_impute_constant.py",
        "transformations/_rowmap/rowmap.py",
        "transformations/_cast/convert.py",
        "core/option_domain.py",
    ]
}

SCOPE = {
    "make_impute_constant": Scope(
        formats=("f32", "f64", "i32"),
        sizes=(_SIZE,),
        bound_to_code="the real make_impute_constant is built at each type and constant; its "
        "stability map is called at d_in = 1 and 2 (options: d_in = 1); its row function is "
        "run on the probe records listed (floats: NaN, +-0.0, +-inf, 1.5; option(i32): None, "
        "0, -1, 7, -2**31, 2**31-1; option(f64): None, NaN, +-0.0, inf, 5e-324) and must agree "
        "with the modelled row bit for bit there; the output-domain claim is the member claim "
        "of the constructor's own output_domain (its nan flag, carrier and bounds)",
        bit_precise=("the MODEL's image of every record (NaN, infinities and signed zeros "
                     "included) is in the code's output element domain, and every pair of "
                     "datasets of length <= N at distance <= d_in under the MODEL's row has "
                     "outputs at distance <= map(d_in), for float atoms and options of i32 and "
                     "f64",),
        assumed=("the code's row function is tied to the model only on the probe records "
                 "listed; other records are covered by the hand proof (and random tests) only",
                 "SMT-LIB has one NaN per format, so NaNs of different payloads (one record by "
                 "the definitions) are not told apart here; the proof covers them",
                 "options of other types are covered by the proof and the tests only"),
        instances="constants 0.0, -0.0, 1.5, inf; d_in 1 and 2; options: i32 constants 0 and "
        "-2**31, f64 constants -0.0 and 1.5, d_in 1",
    )
}  # fmt: skip
