"""SMT model of ``make_geometric``, bound to the code.

Two kinds of obligations, at instances of the real constructor (i32 atoms and vectors, scales
of :data:`SCALES`, bounds of :data:`BOUNDS`):

* ``map``: the real measurement's own map is called at every ``d_in`` of :data:`D_INS`; a case
  is satisfiable exactly when the value is below ``d_in / scale`` (exact rationals; ``+inf``
  stands for itself), the bound of the integer Laplace release (make_laplace.tex);
* ``clamp``: the clamp the release applies before the noise, modelled in 64-bit bit-vectors on
  the bounds read from the real function's closure, is 1-Lipschitz on every pair of i32 values:
  ``|c(u) - c(v)| <= |u - v|``; with ``c(u)`` inside ``[L, U]``. The model of the clamp is
  checked against the code on random values by tests/prove/test_geometric_model.py.
"""

from __future__ import annotations

import inspect
import math

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope, exact

__all__ = ["SCALES", "BOUNDS", "D_INS", "built", "clamp_model", "map_instance", "clamp_instance"]

_NAME = "make_geometric"
SCALES = (1.0, 0.3, 1e-3, 1e3)
BOUNDS = (None, (0, 10), (-5, -5), (-(2**31), 2**31 - 1))
D_INS = (0, 1, 2, 7, 2**31 - 1)
_WIDTH = 64


def built(vector: bool, scale, bounds):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import absolute_distance, l1_distance

    from .make_geometric import make_geometric

    atom = atom_domain(T="i32")
    if vector:
        return make_geometric(vector_domain(atom), l1_distance(T="i32"), scale, bounds)
    return make_geometric(atom, absolute_distance(T="i32"), scale, bounds)


def code_bounds(measurement):
    """``(L, U)`` as the real release's clamp reads them (its closure)."""
    clamp = inspect.getclosurevars(measurement.function).nonlocals["clamp"]
    values = inspect.getclosurevars(clamp).nonlocals
    return values["lower"], values["upper"]


def clamp_model(u, lower: int, upper: int):
    low, high = z3.BitVecVal(lower, _WIDTH), z3.BitVecVal(upper, _WIDTH)
    raised = z3.If(u < low, low, u)
    return z3.If(raised > high, high, raised)


def map_instance(vector: bool, bounds, built_of=built) -> Obligation:
    def violation():
        cases = []
        for scale in SCALES:
            measurement = built_of(vector, scale, bounds)
            for d_in in D_INS:
                value = measurement.map(d_in)
                below = z3.BoolVal(False) if value == math.inf else (
                    exact(value) * exact(scale) < exact(d_in)
                )  # fmt: skip
                example = {"scale": scale, "d_in": d_in, "map": repr(value)}
                cases.append((below, lambda m, e=example: e))
        return cases

    shape = "vector" if vector else "atom"
    return Obligation(
        constructor=_NAME,
        claim=f"real make_geometric i32 {shape} bounds={bounds}, scales {SCALES}, d_in in "
        f"{D_INS}: the map is >= d_in / scale (exact)",
        format="i32", size=1, violation=violation,
    )  # fmt: skip


def clamp_instance(bounds, built_of=built) -> Obligation:
    def violation():
        measurement = built_of(False, 1.0, bounds)
        lower, upper = code_bounds(measurement)
        u, v = z3.BitVecs("u v", _WIDTH)
        in_i32 = z3.And(*[z3.And(w >= -(2**31), w <= 2**31 - 1) for w in (u, v)])
        cu, cv = clamp_model(u, lower, upper), clamp_model(v, lower, upper)
        gap, distance = z3.If(cu >= cv, cu - cv, cv - cu), z3.If(u >= v, u - v, v - u)
        broken = z3.Or(gap > distance, cu < lower, cu > upper)
        return z3.And(in_i32, broken), lambda m: {"u": str(m.eval(u)), "v": str(m.eval(v)),
                                                  "bounds": (lower, upper)}  # fmt: skip

    return Obligation(
        constructor=_NAME,
        claim=f"real make_geometric i32 bounds={bounds}: the clamp to the code's bounds is "
        "1-Lipschitz and lands in [L, U] on every pair of i32 values (64-bit bit-vectors)",
        format="i32", size=2, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    maps = [map_instance(vector, bounds) for vector in (False, True) for bounds in BOUNDS]
    return maps + [clamp_instance(bounds) for bounds in BOUNDS if bounds is not None]


SCOPE = {
    _NAME: Scope(
        formats=("i32", "real"),
        sizes=(1, 2),
        bound_to_code="the real make_geometric is built at each instance and its own map is "
        "called; the clamp's bounds are read from the real function's closure",
        instances=f"i32 atoms and vectors; scales {SCALES} x bounds {BOUNDS} x d_in {D_INS}",
        bit_precise=("the clamp on every pair of i32 values (64-bit bit-vectors)",),
        assumed=(
            "make_laplace's release is valid with that map (its own proof and model)",
            "post-processing by the output clamp (the proof)",
        ),
    )
}

MODELLED = {_NAME: ["measurements/geometric/make_geometric.py"]}
