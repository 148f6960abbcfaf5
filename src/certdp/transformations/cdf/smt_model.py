"""SMT model of ``make_cdf`` and its bounded theorem.

Model of the Function (``cdf`` in make_cdf.py), bit for bit in IEEE arithmetic of ``TA``
(round to nearest, ties to even): ``c_{-1} = +0``, ``c_i = c_{i-1} + x_i``, output
``c_i / c_{n-1}``.  Two kinds of obligation per format (f32, f64) and length ``n <= 2``:

* ``binding``: the real ``make_cdf(TA)`` is built and run on the probe vectors listed (zeros,
  signed zeros, subnormals, the largest finite values whose sum overflows, negative and
  cancelling values); each output must equal, bit for bit (NaN with NaN), the model's value on
  the same constants.  Off the probes the model stands for the code by the hand proof and the
  contract (which replays every output exactly on random vectors).
* ``shape`` (Bitwuzla, bit-precise): for every vector of ``n`` values of ``TA`` that are
  ``>= 0`` (``-0`` included) whose total ``c_{n-1}`` is finite and positive, the model's
  outputs satisfy ``0 <= o_0 <= ... <= o_{n-1} = 1`` (Theorem "cdf shape").
"""

from __future__ import annotations

import math

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import float_sort, float_value
from certdp.contracts.smt_code import Scope

__all__ = ["cdf_model", "PROBES", "obligations", "MODELLED", "SCOPE"]

_RNE = z3.RNE()
SIZES = (1, 2)
FORMATS = ("f32", "f64")

#: Probe vectors on which the real Function is run (as Python floats, rounded to TA by it).
PROBES = (
    [1.0], [0.0], [-0.0], [3.0, 1.0], [0.0, 0.0], [1.0, -1.0], [2.0, -0.0, 5.0],
    [5e-324, 5e-324], [1e-45, 2e-45, 0.0], [3.4028234663852886e38, 3.4028234663852886e38],
    [1.7976931348623157e308, 1.7976931348623157e308], [0.1, 0.2, 0.3], [-1.0, 4.0, 2.5],
    [1e308, -1e308, 1.0], [7.0, 0.0, 0.0], [0.0, 0.0, 7.0],
)  # fmt: skip


def cdf_model(xs: list, TA: str) -> list:
    """The model's outputs for z3 floats ``xs`` of ``TA``'s sort."""
    sort = float_sort(TA)
    total, sums = z3.FPVal(0.0, sort), []
    for x in xs:
        total = z3.fpAdd(_RNE, total, x)
        sums.append(total)
    return [z3.fpDiv(_RNE, c, sums[-1]) for c in sums]


def _same(model_value, code_value: float, sort) -> bool:
    value = z3.simplify(model_value)
    if math.isnan(code_value):
        return z3.is_true(z3.simplify(z3.fpIsNaN(value)))
    return z3.is_true(z3.simplify(z3.fpEQ(value, float_value(code_value, sort)))) and (
        z3.is_true(z3.simplify(z3.fpIsNegative(value))) == (math.copysign(1.0, code_value) < 0)
        or code_value == 0.0  # the Function returns floats; the model's zero sign is not read
    )


def _binding(TA: str) -> Obligation:
    import numpy as np

    from .make_cdf import make_cdf

    def violation():
        sort = float_sort(TA)
        built = make_cdf(TA)
        for probe in PROBES:
            out = built(probe)
            with np.errstate(over="ignore"):
                rounded = [float({"f32": np.float32, "f64": np.float64}[TA](v)) for v in probe]
            model = cdf_model([float_value(v, sort) for v in rounded], TA)
            for o, m in zip(out, model):
                if not _same(m, o, sort):
                    return z3.BoolVal(True), lambda _m, p=probe, c=out: {"probe": p, "code": c}
        return z3.BoolVal(False), lambda _m: {}

    return Obligation(
        constructor="make_cdf", claim=f"binding {TA}: code = model on {len(PROBES)} probes",
        format=TA, size=max(len(p) for p in PROBES), violation=violation,
    )  # fmt: skip


def _shape(TA: str, n: int) -> Obligation:
    def violation():
        sort = float_sort(TA)
        xs = [z3.FP(f"x{i}", sort) for i in range(n)]
        zero, one = z3.FPVal(0.0, sort), z3.FPVal(1.0, sort)
        out = cdf_model(xs, TA)
        total = xs[0]
        for x in xs[1:]:
            total = z3.fpAdd(_RNE, total, x)
        pre = z3.And(
            *[z3.And(z3.Not(z3.fpIsNaN(x)), z3.fpGEQ(x, zero)) for x in xs],
            z3.fpIsNormal(total) if TA == "f64" else z3.Not(z3.fpIsInf(total)),
            z3.fpGT(total, zero),
        )
        post = z3.And(
            z3.fpGEQ(out[0], zero),
            *[z3.fpLEQ(a, b) for a, b in zip(out, out[1:])],
            z3.fpEQ(out[-1], one),
        )

        def decode(model):
            return {f"x{i}": model.get(f"x{i}") if isinstance(model, dict) else str(
                model.eval(x)) for i, x in enumerate(xs)}  # fmt: skip

        return z3.And(pre, z3.Not(post)), decode

    return Obligation(
        constructor="make_cdf", claim=f"shape {TA} n={n}: monotone in [0, 1], ends at 1",
        format=TA, size=n, violation=violation, solver="bitwuzla",
    )  # fmt: skip


def _add_monotone(TA: str) -> Obligation:
    """The hand proof's step for any length: ``c >= 0`` and ``x >= 0`` (not NaN) give
    ``c + x >= c`` in TA."""

    def violation():
        sort = float_sort(TA)
        c, x = z3.FP("c", sort), z3.FP("x", sort)
        zero = z3.FPVal(0.0, sort)
        pre = z3.And(z3.Not(z3.fpIsNaN(c)), z3.Not(z3.fpIsNaN(x)), z3.fpGEQ(c, zero),
                     z3.fpGEQ(x, zero))  # fmt: skip
        return z3.And(pre, z3.Not(z3.fpGEQ(z3.fpAdd(_RNE, c, x), c))), lambda m: {"m": str(m)}

    return Obligation(
        constructor="make_cdf", claim=f"step {TA}: c + x >= c for c, x >= 0",
        format=TA, size=2, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_cdf" not in names:
        return []
    found = [_binding(TA) for TA in FORMATS]
    found += [_shape(TA, n) for TA in FORMATS for n in SIZES]
    found += [_add_monotone(TA) for TA in FORMATS]
    return found


MODELLED = {
    "make_cdf": [
        "transformations/cdf/make_cdf.py",
        "transformations/_postprocess/arguments.py",
        "core/postprocess.py",
    ]
}

SCOPE = {
    "make_cdf": Scope(
        formats=FORMATS,
        sizes=SIZES,
        bound_to_code="the real make_cdf(TA) is built for f32 and f64 and run on the probe "
        "vectors listed in smt_model.py (zeros, signed zeros, subnormals, overflowing sums, "
        "cancelling values); its outputs must equal the model's bit for bit (NaN with NaN)",
        bit_precise=("the model's outputs on every vector of n <= 2 non-negative values of TA "
                     "with a finite positive total do not decrease, start at >= 0 and end at "
                     "exactly 1",
                     "the running sums' step: for all non-NaN c, x >= 0 of TA, c + x >= c",),
        assumed=("the code is tied to the model only on the probe vectors; elsewhere by the "
                 "hand proof and the contract's exact replay on random vectors",
                 "the shape claim needs a finite positive total (a zero total gives NaN, an "
                 "infinite one NaN or infinities, as IEEE division and OpenDP do); in f64 the shape claim is checked "
                 "for a normal total only (a subnormal positive total: the hand proof)"),
        instances="TA f32 and f64; n = 1, 2 for the shape claim (longer vectors: the hand proof, whose step is the monotonicity of one addition, also checked)",
    )
}  # fmt: skip
