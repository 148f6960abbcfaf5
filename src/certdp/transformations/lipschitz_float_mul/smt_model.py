"""SMT model of ``make_lipschitz_float_mul`` and its bounded theorem.

Model of the function (``function`` / ``_product`` in make_lipschitz_float_mul.py), bit for bit
in IEEE arithmetic: a non-NaN input ``x`` of ``T`` (infinities included) is clamped with the
IEEE order (``lower`` if ``x < lower``, ``upper`` if ``x > upper``, else ``x``), then
multiplied by the constant rounded to nearest, ties to even: in binary64 for ``f64``; for
``f32`` in binary64 and the binary64 result rounded to binary32, which is what the code does
(the model does not assume the product exact in binary64: the solver sees both roundings).
``tests/prove/test_lipschitz_float_mul_model.py`` checks the model against the code on random
inputs.

Theorem, per instance (``T``, constant, bounds, ``d_in``; the constant and bounds include the
pair at which OpenDP 0.16's f32 map is below the truth, and ``d_in`` values that are no ``f32``
value): for every pair of non-NaN inputs with ``|x - x'| <= d_in`` (exactly; infinities are at
distance ``inf``), both outputs are finite and ``|f(x) - f(x')| <= map(d_in)``, the map being
the real constructor's.  Distances are compared in binary64, where the ``f32`` values and the
``d_in`` values are exact and a difference rounded up is at most a binary64 bound exactly when
the exact difference is.
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import float_sort, float_value, within_float
from certdp.contracts.smt_code import Scope

__all__ = ["product_model", "obligations", "CASES", "D_INS", "MODELLED", "SCOPE"]

_F64 = z3.Float64()

#: (constant, (lower, upper)) per instance; f32 rounds them to nearest, as the constructor does.
CASES = (
    (24.206945419311523, (-3.601987600326538, 3.601987600326538)),
    (0.1, (-1.0, 1.0)),
    (-3.0, (-5.0, 5.0)),
    (1.5, (0.0, 1e-40)),
    (7.0, (-0.25, 1.0)),
    (0.0, (-1.0, 1.0)),
    (1e30, (-1e7, 2.5)),
)
#: distances: zero, one, one half, a small one, and an f64 value that is no f32 value (the
#: exact distance of OpenDP's counterexample pair)
D_INS = (0.0, 1.0, 0.5, 1e-3, 4.909167528152466)


def product_model(x, constant, lower, upper, T: str):
    """The output for the z3 float ``x`` of ``T``'s sort (``constant``, ``lower``, ``upper``
    z3 values of that sort)."""
    clamped = z3.If(z3.fpLT(x, lower), lower, z3.If(z3.fpGT(x, upper), upper, x))
    if T == "f64":
        return z3.fpMul(z3.RNE(), clamped, constant)
    wide = z3.fpMul(
        z3.RNE(), z3.fpToFP(z3.RNE(), clamped, _F64), z3.fpToFP(z3.RNE(), constant, _F64)
    )
    return z3.fpToFP(z3.RNE(), wide, z3.Float32())


def _wide(value, T: str):
    return value if T == "f64" else z3.fpToFP(z3.RNE(), value, _F64)


def _instance(T: str, constant: float, bounds, d_in: float):
    from certdp.core.domains import atom_domain
    from certdp.core.metrics import absolute_distance

    from .make_lipschitz_float_mul import make_lipschitz_float_mul

    built = make_lipschitz_float_mul(
        atom_domain(T=T, nan=False), absolute_distance(T=T), constant, bounds
    )
    stated = built.map(d_in)
    lower, upper = _bounds_of(built)
    c = _constant_of(built)
    sort = float_sort(T)
    lo, hi, k = float_value(lower, sort), float_value(upper, sort), float_value(c, sort)

    def violation():
        x, x_prime = z3.FP("x", sort), z3.FP("x_prime", sort)
        y, y_prime = (product_model(v, k, lo, hi, T) for v in (x, x_prime))
        inputs = z3.And(z3.Not(z3.fpIsNaN(x)), z3.Not(z3.fpIsNaN(x_prime)))
        close = within_float(_wide(x, T), _wide(x_prime, T), z3.FPVal(d_in, _F64))
        outside = z3.Or(z3.fpIsNaN(y), z3.fpIsInf(y))
        far = z3.Not(within_float(_wide(y, T), _wide(y_prime, T), z3.FPVal(stated, _F64)))
        formula = z3.And(inputs, close, z3.Or(outside, far))

        def decode(model):
            return {
                "x": _float(model.eval(x, True)),
                "x_prime": _float(model.eval(x_prime, True)),
                "d_in": d_in,
                "map": stated,
            }

        return [(formula, decode)]

    def confirm(example):
        outputs = [built(example[k]) for k in ("x", "x_prime")]
        return f"code: outputs {outputs[0]!r}, {outputs[1]!r}; map({d_in}) = {stated!r}"

    return Obligation(
        constructor="make_lipschitz_float_mul",
        claim=f"{T} constant={constant} bounds={bounds} d_in={d_in}",
        format=T, size=1, violation=violation, confirm=confirm, solver="bitwuzla",
    )  # fmt: skip


def _bounds_of(built):
    """The clamp bounds the function uses: read back from the function's closure."""
    cells = dict(zip(built.function.__code__.co_freevars, built.function.__closure__))
    return cells["lower"].cell_contents, cells["upper"].cell_contents


def _constant_of(built):
    cells = dict(zip(built.function.__code__.co_freevars, built.function.__closure__))
    return cells["constant"].cell_contents


def _float(value) -> float:
    from certdp.contracts.smt import float_of

    return float_of(value)


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_lipschitz_float_mul" not in names:
        return []
    return [
        _instance(T, constant, bounds, d_in)
        for T in ("f32", "f64")
        for constant, bounds in CASES
        for d_in in D_INS
    ]


MODELLED = {
    "make_lipschitz_float_mul": [
        "transformations/lipschitz_float_mul/make_lipschitz_float_mul.py",
        "numeric/floats.py",
        "core/domains.py",
    ]
}

SCOPE = {
    "make_lipschitz_float_mul": Scope(
        formats=("f32", "f64"),
        bound_to_code="the real make_lipschitz_float_mul is built at each type, constant and "
        "bounds, the clamp bounds and the converted constant are read from the built function, "
        "and its own map is called at d_in",
        instances=f"constants and bounds {', '.join(f'{c} {b}' for c, b in CASES)}; d_in "
        f"{', '.join(str(d) for d in D_INS)}",
        bit_precise=("the clamp and the product (binary64; for f32 the binary64 product rounded "
                     "to binary32) of every pair of non-NaN inputs, infinities included, whose "
                     "exact distance is at most d_in, and the finiteness of every output",),
    )
}  # fmt: skip
