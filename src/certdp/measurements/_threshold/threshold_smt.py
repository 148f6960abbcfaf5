"""The SMT cases shared by the threshold measurements' models: the real map at each input
distance, and a formula over a pair of maps that is satisfiable exactly when the pair breaks
the stated value (each model gives its own variables, closeness and violation)."""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from certdp.contracts.smt_code import exact, traced

__all__ = [
    "threshold_cases",
    "FLOAT_INSTANCES",
    "FLOAT_D_INS",
    "float_grid",
    "float_pair_factory",
]


def threshold_cases(built, d_ins, delta_name, pair_variables, close, violation_formula, scale,
                    threshold) -> list:  # fmt: skip
    """``(formula, decode)`` per ``d_in`` the real map of ``built`` accepts, with the recorded
    arguments of its last ``delta_name`` call passed to ``violation_formula``."""
    cases = []
    for d_in in d_ins:
        try:
            value, records = traced(lambda d=d_in: built.map(d), (delta_name,))
        except Exception:  # the map refuses this distance (allowed by the theorem)
            continue
        calls = [arguments for name, arguments, _, _ in records if name == delta_name]
        keys = pair_variables()
        formula = z3.And(
            close(keys, d_in),
            violation_formula(keys, scale, threshold, value, calls[-1] if calls else None),
        )
        example = {"scale": scale, "threshold": threshold, "d_in": repr(d_in),
                   "map": repr(value)}  # fmt: skip

        def decode(model, keys=keys, example=example):
            shown = dict(example)
            for index, key in enumerate(keys):
                on_x = z3.is_true(model.eval(key["on_x"], model_completion=True))
                on_y = z3.is_true(model.eval(key["on_y"], model_completion=True))
                shown[f"key {index}"] = (
                    (str(model.eval(key["x"], model_completion=True)) if on_x else "absent")
                    + " / "
                    + (str(model.eval(key["y"], model_completion=True)) if on_y else "absent")
                )
            return shown

        cases.append((formula, decode))
    return cases


#: Float instances: (value type, k, scale, threshold) of the float branch; the values range over
#: the multiples of 2^K_MIN (every finite float is one), any size.
FLOAT_INSTANCES = (
    ("f32", None, 1.0, 5.0),
    ("f32", -2, 0.5, 3.0),
    ("f32", 0, 1.0, 5.0),
    ("f64", 1, 2.5, 14.0),
)
FLOAT_D_INS = ((1, 0.0, 0.0), (1, 1.0, 1.0), (2, 1.5, 1.0), (3, 0.75, 0.5), (2, 5.0, 3.0))
K_MIN = {"f32": -149, "f64": -1074}


def float_grid(T: str, k, scale: float, threshold: float):
    """``(k', grid scale, grid threshold index)`` of the float branch, from the lemma
    (float_release.tex), independently of the code."""
    kk = K_MIN[T] if k is None else k
    unit = Fraction(2) ** kk
    return kk, Fraction(scale) / unit, math.floor(Fraction(threshold) / unit + Fraction(1, 2))


def float_pair_factory(T: str, k: int, size: int, p: int):
    """``(pair_variables, close)`` for pairs of float-valued maps on ``size`` keys: each value
    is ``n 2^K_MIN`` for an integer ``n``; ``x``, ``y`` and ``d`` of a key are its grid indices
    ``floor(x / 2^k + 1/2)`` and their distance (what the integer violation formulas read);
    closeness is on the float values."""
    shift = k - K_MIN[T]

    def index(n):
        return (2 * n + 2**shift) / 2 ** (shift + 1)  # z3 integer division: floor here

    def pair_variables():
        keys = []
        for j in range(size):
            on_x, on_y = z3.Bool(f"on_x{j}"), z3.Bool(f"on_y{j}")
            nx, ny = z3.Int(f"nx{j}"), z3.Int(f"ny{j}")
            n0x, n0y = z3.If(on_x, nx, 0), z3.If(on_y, ny, 0)
            fd = z3.If(n0x >= n0y, n0x - n0y, n0y - n0x)
            x, y = index(nx), index(ny)
            x0, y0 = z3.If(on_x, x, 0), z3.If(on_y, y, 0)
            d = z3.If(x0 >= y0, x0 - y0, y0 - x0)
            alone = on_x != on_y
            changed = z3.Or(alone, fd > 0)
            keys.append({"on_x": on_x, "on_y": on_y, "x": x, "y": y, "x0": x0, "y0": y0,
                         "d": d, "fd": fd, "alone": alone, "changed": changed})  # fmt: skip
        return keys

    def close(keys, d_in):
        l0, lp, linf = d_in
        per_unit = Fraction(2) ** -K_MIN[T]  # float distance = fd 2^K_MIN
        count = z3.Sum([z3.If(key["changed"], 1, 0) for key in keys])
        if p == 1:
            total = z3.Sum([key["fd"] for key in keys]) <= exact(Fraction(lp) * per_unit)
        else:
            total = z3.Sum([key["fd"] * key["fd"] for key in keys]) <= exact(
                (Fraction(lp) * per_unit) ** 2
            )
        return z3.And(
            count <= l0, total, *[key["fd"] <= exact(Fraction(linf) * per_unit) for key in keys]
        )

    return pair_variables, close
