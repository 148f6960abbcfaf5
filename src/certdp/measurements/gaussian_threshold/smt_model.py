"""SMT model of ``make_gaussian_threshold``'s privacy map, bound to the code.

The theorem's combinatorial part, checked at instances of the real constructor: the real
measurement is built (value type i32, scales and thresholds of :data:`SCALES` and
:data:`THRESHOLDS`) and its own map is called at every triple of :data:`D_INS` under a tracer
(:func:`certdp.contracts.smt_code.traced`), which records the arguments the code passes to
``gaussian_threshold_delta`` (the scale, the distance ``t`` and the count ``l0``). The solver
then ranges over every pair of maps on ``N = 3`` keys (each key present or absent on each side,
any integer values) that are ``d_in``-close under ``l02inf_distance(absolute_distance)``
(Definition [L0-Lp-Linf distance] of core/partition_metrics.tex, a key of one side only standing
against 0; the squares of the per-key distances, which ``l_inf`` bounds, are written as finite
case splits, so every formula is linear). A case is satisfiable exactly when such a pair breaks
what the proof needs of the map's value:

* ``rho``: the keys held by both sides move by ``sum (x_k - x'_k)^2 > 2 scale^2 rho``;
* ``delta``: a key of one side only has a value ``v`` with ``|threshold| - |v| < t`` (its
  survival probability, at most ``P[Z >= |threshold| - |v|]``, could exceed the tail the code
  bounds), or more keys are on one side only than the ``l0`` the code passes; or the map
  returned ``delta = 0`` (without calling ``gaussian_threshold_delta``) although a key is on one
  side only or a shared key moved.

What ``gaussian_threshold_delta`` computes from ``(scale, t, l0)`` (an f64 ``>= 1 - (1 - P[Z >=
t])^l0``) is its own lemma (_threshold/gaussian_tail.tex, tested against an independent
80-digit sum); the one-key bound, the mixture argument and the Rényi bound of the shared keys
are the proof's exact-real part.
"""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, exact
from certdp.measurements._threshold.threshold_smt import (
    FLOAT_D_INS,
    FLOAT_INSTANCES,
    float_grid,
    float_pair_factory,
    threshold_cases,
)

__all__ = ["SCALES", "THRESHOLDS", "D_INS", "KEYS", "pair_variables", "code_instance"]

_NAME = "make_gaussian_threshold"
_DELTA = "gaussian_threshold_delta"
SCALES = (0.5, 1.0, 2.5)
THRESHOLDS = (-3, 0, 1, 5, 14)
D_INS = (
    (0, 0, 0), (1, 0, 0), (1, 1, 1), (2, 1, 1), (2, 5, 1), (2, 5, 3), (1, 3, 6), (3, 2, 2),
    (2, 1.5, 1.5), (3, 7, 5), (3, 0, 0), (2, 3, 2), (3, 4, 3),
)  # fmt: skip
KEYS = 3
#: Largest per-key distance whose square is written out (every l_inf of D_INS is below it).
SQUARES = 16


def _square(d):
    """``d^2`` for an integer ``0 <= d <= SQUARES`` (a linear case split)."""
    return z3.Sum([z3.If(d == j, j * j, 0) for j in range(SQUARES + 1)])


def pair_variables():
    """Per key: presence on each side and the two values (0 when absent), the per-key distance
    and whether the key is changed; with the closeness constraints added by :func:`close`."""
    keys = []
    for k in range(KEYS):
        on_x, on_y = z3.Bool(f"on_x{k}"), z3.Bool(f"on_y{k}")
        x, y = z3.Int(f"x{k}"), z3.Int(f"y{k}")
        x0, y0 = z3.If(on_x, x, 0), z3.If(on_y, y, 0)
        d = z3.If(x0 >= y0, x0 - y0, y0 - x0)
        alone = on_x != on_y
        changed = z3.Or(alone, d > 0)
        keys.append({"on_x": on_x, "on_y": on_y, "x": x, "y": y, "x0": x0, "y0": y0, "d": d,
                     "alone": alone, "changed": changed})  # fmt: skip
    return keys


def close(keys, d_in):
    """The pair is ``d_in``-close (each component, exactly). ``l_inf <= SQUARES`` bounds every
    per-key distance, so the squares are the case splits' values."""
    l0, l2, linf = d_in
    assert Fraction(linf) <= SQUARES, "l_inf beyond the written squares"
    count = z3.Sum([z3.If(key["changed"], 1, 0) for key in keys])
    squares = z3.Sum([_square(key["d"]) for key in keys])
    return z3.And(
        count <= l0,
        *[key["d"] <= exact(linf) for key in keys],
        squares <= exact(Fraction(l2) ** 2),
    )


def _abs(v):
    return z3.If(v >= 0, v, -v)


def built_map(scale, threshold):
    """The real measurement (i32 values, String keys)."""
    import certdp.prelude as dp

    from .make_gaussian_threshold import make_gaussian_threshold

    domain = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i32"))
    metric = dp.l02inf_distance(dp.absolute_distance(T="i32"))
    return make_gaussian_threshold(domain, metric, scale, threshold)


def violation_formula(keys, scale, threshold, value, delta_call):
    """Satisfiable (with :func:`close`) exactly when the pair breaks the map's ``value``;
    ``delta_call`` is the recorded arguments of ``gaussian_threshold_delta`` or ``None``."""
    rho, delta = value
    shared = z3.Sum([z3.If(z3.And(k["on_x"], k["on_y"]), _square(k["d"]), 0) for k in keys])
    moved = shared * exact(Fraction(1)) > 2 * exact(scale) ** 2 * exact(rho) if rho != math.inf \
        else z3.BoolVal(False)  # fmt: skip
    lone_values = [z3.If(k["on_x"], k["x"], k["y"]) for k in keys]
    if delta_call is None:
        if delta >= 1:
            short = z3.BoolVal(False)
        else:
            any_change = z3.Or(*[k["changed"] for k in keys])
            short = any_change if delta == 0 else z3.BoolVal(True)
    else:
        t, l0 = delta_call["distance"], delta_call["l0"]
        too_near = z3.Or(
            *[z3.And(k["alone"], abs(threshold) - _abs(v) < t) for k, v in zip(keys, lone_values)]
        )
        too_many = z3.Sum([z3.If(k["alone"], 1, 0) for k in keys]) > l0
        short = z3.Or(too_near, too_many)
    return z3.Or(moved, short)


def code_instance(scale, threshold, built_of=built_map) -> Obligation:
    """The real map at every triple of :data:`D_INS` (``built_of`` replaces the constructor:
    tests)."""

    def violation():
        return threshold_cases(
            built_of(scale, threshold),
            D_INS,
            _DELTA,
            pair_variables,
            close,
            violation_formula,
            scale,
            threshold,
        )

    return Obligation(
        constructor=_NAME,
        claim=f"real make_gaussian_threshold i32 scale={scale} threshold={threshold}, d_in in "
        f"{len(D_INS)} triples, every pair of maps on {KEYS} keys: rho covers the shared keys' "
        "squared moves and the delta's tail starts no further than a lone key's value (exact)",
        format="int", size=KEYS, violation=violation,
    )  # fmt: skip


def built_float_map(T, k, scale, threshold):
    """The real measurement over float values of type ``T`` (String keys)."""
    import certdp.prelude as dp

    from .make_gaussian_threshold import make_gaussian_threshold

    domain = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T=T, nan=False))
    metric = dp.l02inf_distance(dp.absolute_distance(T=T))
    return make_gaussian_threshold(domain, metric, scale, threshold, k)


def float_code_instance(T, k, scale, threshold, built_of=built_float_map) -> Obligation:
    """The real float map at every triple of ``FLOAT_D_INS``: the integer violation formula
    read on the grid indices of float values (threshold_smt.float_pair_factory)."""
    kk, grid_scale, grid_threshold = float_grid(T, k, scale, threshold)
    pair_variables_f, close_f = float_pair_factory(T, kk, KEYS, p=2)

    def violation():
        return threshold_cases(
            built_of(T, k, scale, threshold),
            FLOAT_D_INS,
            _DELTA,
            pair_variables_f,
            close_f,
            violation_formula,
            grid_scale,
            grid_threshold,
        )

    return Obligation(
        constructor=_NAME,
        claim=f"real make_gaussian_threshold {T} k={k} scale={scale} threshold={threshold}, d_in in "
        f"{len(FLOAT_D_INS)} triples, every pair of float-valued maps on {KEYS} keys (values "
        "any multiples of 2^K_MIN): the map's value covers the grid indices' moves (exact)",
        format="int", size=KEYS, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    integer = [code_instance(scale, threshold) for scale in SCALES for threshold in THRESHOLDS]
    return integer + [float_code_instance(*instance) for instance in FLOAT_INSTANCES]


SCOPE = {
    _NAME: Scope(
        formats=("int", "real"),
        sizes=(KEYS,),
        bound_to_code="the real make_gaussian_threshold is built at each instance and its own "
        "map is called (under a tracer that records the arguments it passes to "
        "gaussian_threshold_delta)",
        instances=f"i32 values; scales {SCALES} x thresholds {THRESHOLDS} x {len(D_INS)} "
        "triples d_in; every pair of maps on 3 keys (unbounded integers); float values: "
        f"{FLOAT_INSTANCES} (T, k, scale, threshold) x {len(FLOAT_D_INS)} triples, values any "
        "multiples of 2^K_MIN (every finite float is one; values are not limited to floats)",
        abstractions=(
            "the one-key bound P[v + Z passes] <= P[Z >= |threshold| - |v|], the mixture "
            "argument and the Rényi bound of discrete Gaussians of the proof, in exact reals",
        ),
        assumed=(
            "gaussian_threshold_delta returns an f64 >= 1 - (1 - P[Z >= t])^l0 (its lemma, "
            "_threshold/gaussian_tail.tex)",
        ),
    )
}

MODELLED = {_NAME: ["measurements/gaussian_threshold/make_gaussian_threshold.py"]}
