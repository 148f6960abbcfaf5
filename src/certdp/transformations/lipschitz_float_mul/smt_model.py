"""SMT model of ``make_lipschitz_float_mul`` and its bounded theorem.

Model of the function (``function`` / ``_product`` in make_lipschitz_float_mul.py), bit for bit
in IEEE arithmetic: a non-NaN input ``x`` of ``T`` (infinities included) is clamped with the
IEEE order (``lower`` if ``x < lower``, ``upper`` if ``x > upper``, else ``x``), then
multiplied by the constant rounded to nearest, ties to even: in binary64 for ``f64``; for
``f32`` in binary64 and the binary64 result rounded to binary32, which is what the code does
(the model does not assume the product exact in binary64: the solver sees both roundings).
``tests/prove/test_lipschitz_float_mul_model.py`` checks the model against the code on random
inputs.

Theorem, per instance (``T``, constant, bounds; the constant and bounds include the pair at
which OpenDP 0.16's f32 map is below the truth), in two parts, as the proof argues:

* ``error`` (Bitwuzla, bit-precise, one symbolic input): for every non-NaN input ``x`` of ``T``
  (infinities included) the output is finite and within ``h`` of the exact product of the
  clamped input and the constant, ``h`` being half the spacing of ``T`` at ``w`` (``w`` the
  largest output magnitude rounded up, by ``certdp.numeric``'s ``inf_mul`` and ``ulp``; ``h``
  rounded down to 0 if it is no binary64 value).  The exact difference is compared through one
  fused multiply-add rounded up and one rounded down, in binary64 (where f32 values are exact).
* ``pair`` (z3, exact reals, per ``d_in``, including an f64 ``d_in`` that is no f32 value, the
  exact distance of OpenDP's counterexample pair): for all reals ``x, x'`` with
  ``|x - x'| <= d_in`` and all errors ``|e|, |e'| <= h``,
  ``|(c * clamp(x) + e) - (c * clamp(x') + e')| <= map(d_in)``, the map being the real
  constructor's.  Together: every pair of finite inputs at most ``d_in`` apart has outputs at
  most ``map(d_in)`` apart (an infinite input is at distance ``inf`` from every input).
"""

from __future__ import annotations

from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import float_sort, float_value
from certdp.contracts.smt_code import Scope

__all__ = ["product_model", "error_bound", "obligations", "CASES", "D_INS", "MODELLED", "SCOPE"]

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


def _built(T: str, constant: float, bounds):
    from certdp.core.domains import atom_domain
    from certdp.core.metrics import absolute_distance

    from .make_lipschitz_float_mul import make_lipschitz_float_mul

    return make_lipschitz_float_mul(
        atom_domain(T=T, nan=False), absolute_distance(T=T), constant, bounds
    )


def error_bound(T: str, lower: float, upper: float, c: float) -> float:
    """Half the spacing of ``T`` at ``w = max(|lower|, |upper|) * |c|`` rounded up (the proof's
    rounding error of one product), as a binary64 value; rounded down to 0 in the one case where
    it is no binary64 value (``w`` in the lowest binade of ``f64``)."""
    from certdp.numeric import inf_mul, ulp

    spacing = ulp(inf_mul(max(abs(lower), abs(upper)), abs(c), T), T)
    half = spacing / 2
    return half if half * 2 == spacing else 0.0


def _error_instance(T: str, constant: float, bounds):
    """Bitwuzla, one input: every output is finite and within the error bound of the exact
    product of the clamped input and the constant."""
    built = _built(T, constant, bounds)
    lower, upper = _bounds_of(built)
    c = _constant_of(built)
    sort = float_sort(T)
    lo, hi, k = float_value(lower, sort), float_value(upper, sort), float_value(c, sort)
    bound = z3.FPVal(error_bound(T, lower, upper, c), _F64)

    def violation():
        x = z3.FP("x", sort)
        y = product_model(x, k, lo, hi, T)
        clamped = z3.If(z3.fpLT(x, lo), lo, z3.If(z3.fpGT(x, hi), hi, x))
        # the exact c * clamped - y, rounded up and down once (in binary64, where f32 values
        # are exact): it is at most the bound exactly when its upward rounding is, and so on
        a, b, minus_y = _wide(clamped, T), _wide(k, T), z3.fpNeg(_wide(y, T))
        up = z3.fpFMA(z3.RTP(), a, b, minus_y)
        down = z3.fpFMA(z3.RTN(), a, b, minus_y)
        outside = z3.Or(z3.fpIsNaN(y), z3.fpIsInf(y))
        far = z3.Or(z3.fpGT(up, bound), z3.fpLT(down, z3.fpNeg(bound)))
        formula = z3.And(z3.Not(z3.fpIsNaN(x)), z3.Or(outside, far))

        def decode(model):
            return {"x": _float(model.eval(x, True))}

        return [(formula, decode)]

    def confirm(example):
        return f"code: output {built(example['x'])!r}"

    return Obligation(
        constructor="make_lipschitz_float_mul",
        claim=f"{T} constant={constant} bounds={bounds}: every output finite and within "
        "ulp(w)/2 of the exact product",
        format=T, size=1, violation=violation, confirm=confirm, solver="bitwuzla",
    )  # fmt: skip


def _pair_instance(T: str, constant: float, bounds, d_in: float):
    """z3, exact reals: two inputs at most ``d_in`` apart whose outputs are the exact products
    of the clamped inputs moved by at most the error bound each are ``map(d_in)``-close, the
    map being the real constructor's."""
    built = _built(T, constant, bounds)
    stated = built.map(d_in)
    lower, upper = _bounds_of(built)
    c = _constant_of(built)
    half = error_bound(T, lower, upper, c)

    def real(value: float):
        return z3.RealVal(Fraction(value))

    def violation():
        x, x_prime, e, e_prime = z3.Reals("x x_prime e e_prime")
        lo, hi, k, h = real(lower), real(upper), real(c), real(half)

        def output(v, err):
            clamped = z3.If(v < lo, lo, z3.If(v > hi, hi, v))
            return k * clamped + err

        gap = output(x, e) - output(x_prime, e_prime)
        formula = z3.And(
            x - x_prime <= real(d_in), x_prime - x <= real(d_in),
            -h <= e, e <= h, -h <= e_prime, e_prime <= h,
            z3.Or(gap > real(stated), -gap > real(stated)),
        )  # fmt: skip

        def decode(model):
            return {
                name: str(model.eval(v, True))
                for name, v in (("x", x), ("x_prime", x_prime), ("e", e), ("e_prime", e_prime))
            } | {"d_in": d_in, "map": stated}

        return [(formula, decode)]

    return Obligation(
        constructor="make_lipschitz_float_mul",
        claim=f"{T} constant={constant} bounds={bounds} d_in={d_in}: outputs map-close",
        format=T, size=1, violation=violation,
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
    result = []
    for T in ("f32", "f64"):
        for constant, bounds in CASES:
            result.append(_error_instance(T, constant, bounds))
            result += [_pair_instance(T, constant, bounds, d_in) for d_in in D_INS]
    return result


MODELLED = {
    "make_lipschitz_float_mul": [
        "transformations/lipschitz_float_mul/make_lipschitz_float_mul.py",
        "numeric/floats.py",
        "core/domains.py",
    ]
}

SCOPE = {
    "make_lipschitz_float_mul": Scope(
        formats=("f32", "f64", "real"),
        bound_to_code="the real make_lipschitz_float_mul is built at each type, constant and "
        "bounds, the clamp bounds and the converted constant are read from the built function, "
        "and its own map is called at d_in",
        instances=f"constants and bounds {', '.join(f'{c} {b}' for c, b in CASES)}; d_in "
        f"{', '.join(str(d) for d in D_INS)}",
        bit_precise=("the clamp and the product (binary64; for f32 the binary64 product rounded "
                     "to binary32) of every non-NaN input, infinities included: the output is "
                     "finite and within h = ulp(w)/2 of the exact product (one symbolic input)",),
        abstractions=("the pair step: inputs as exact reals at most d_in apart, outputs as the "
                      "exact products of the clamped inputs moved by at most h each, are within "
                      "the real map(d_in)",),
    )
}  # fmt: skip
