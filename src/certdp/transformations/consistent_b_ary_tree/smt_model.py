"""SMT model of ``make_consistent_b_ary_tree`` and its bounded theorem.

Model of the Function (``consistent`` in make_consistent_b_ary_tree.py), bit for bit in IEEE
arithmetic of ``TOA`` (round to nearest, ties to even): steps (1)-(4) of the proof's theorem
on a tree of ``m`` nodes with branching factor ``b`` -- zero nodes at the end of each layer,
the bottom-up inverse-variance weighting, the top-down apportioning, the present leaves.  The
variances depend on ``b`` and ``m`` only, so every product in the model has a constant factor.
Two kinds of obligation:

* ``binding``: the real ``make_consistent_b_ary_tree(b, TIA="i64", TOA)`` is built for b = 2
  and 3 and run on the probe trees listed (lengths 1 to 13, negative values, values beyond
  2**24 and 2**53 whose cast rounds); each leaf must equal the model's, bit for bit.
* ``fixed point`` (Bitwuzla, bit-precise): every consistent tree (each parent the exact sum of
  its children) of integers of magnitude at most ``2**K`` (``K`` per format below) with
  ``(TOA, b, m)`` in ``SHAPES`` is returned unchanged: its leaves, exactly.  The projection does not
  perturb an already consistent tree.
"""

from __future__ import annotations

import math

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import float_sort, float_value
from certdp.contracts.smt_code import Scope

__all__ = ["tree_model", "PROBES", "obligations", "MODELLED", "SCOPE"]

_RNE = z3.RNE()
FORMATS = ("f32", "f64")
#: (format, b, m) of the fixed-point claim: those Bitwuzla decides within the budget (f64 with
#: b = 2, m = 3 and trees of 3 layers, m = 6 and 7, did not finish in 200 s; not claimed).
SHAPES = (("f32", 2, 3), ("f32", 3, 4), ("f64", 3, 4))
#: the magnitude bound 2**K of the fixed-point claim's integers, per format
K = {"f32": 12, "f64": 40}

PROBES = (
    (2, [1]), (2, [1, 2]), (2, [5, 2, 3]), (2, [10, 4, 3, 2, 2]), (2, [10, 4, 3, 2, 2, 1, 1]),
    (2, [-10, 4, -3, 2, 2, 1, 1]), (2, [9, 3, 4, 1, 2, 3]), (3, [10, 3, 3, 4]),
    (3, [10, 3, 3, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1]), (3, [9, 2, 3, 4, 1, 1, 1, 1, 1]),
    (2, [2**24 + 1, 2**23 + 1, 2**23 - 1]), (2, [2**53 + 1, 3, -(2**62)]),
    (2, [0, 0, 0, 0, 0, 0, 0]), (2, [-5, 7, 0, 1000, -1000, 3, 3]),
)  # fmt: skip


def tree_model(values: list, b: int, TOA: str) -> list:
    """The leaves the model gives for the z3 floats ``values`` (the tree's nodes cast to
    ``TOA``), root first."""
    sort = float_sort(TOA)

    def F(v):
        return z3.FPVal(v, sort)

    def add(x, y):
        return z3.fpAdd(_RNE, x, y)

    def nodes(layers):
        return (b**layers - 1) // (b - 1)

    m, layers = len(values), 1
    while nodes(layers) < m:
        layers += 1
    size = nodes(layers)
    zeros = size - m
    var = [F(1.0)] * size
    tree = list(values) + [F(0.0)] * zeros
    for layer in range(layers):
        layer_zeros = zeros // b ** (layers - layer - 1)
        end = nodes(layer + 1)
        for i in range(end - layer_zeros, end):
            var[i], tree[i] = F(0.0), F(0.0)
    zero_var = [False] * size
    for layer in range(layers):
        end = nodes(layer + 1)
        for i in range(end - zeros // b ** (layers - layer - 1), end):
            zero_var[i] = True
    for layer in range(layers - 2, -1, -1):
        for i in range(nodes(layer), nodes(layer + 1)):
            if zero_var[i]:
                continue
            first = i * b + 1
            child_var, child_val = var[first], tree[first]
            for j in range(first + 1, first + b):
                child_var, child_val = add(child_var, var[j]), add(child_val, tree[j])
            alpha = z3.fpDiv(_RNE, F(1.0), var[i])
            var[i] = z3.fpDiv(
                _RNE, F(1.0),
                add(z3.fpDiv(_RNE, F(1.0), var[i]), z3.fpDiv(_RNE, F(1.0), child_var)),
            )  # fmt: skip
            var[i] = z3.simplify(var[i])
            alpha = z3.simplify(z3.fpMul(_RNE, alpha, var[i]))
            tree[i] = add(
                z3.fpMul(_RNE, alpha, tree[i]),
                z3.fpMul(_RNE, z3.simplify(z3.fpSub(_RNE, F(1.0), alpha)), child_val),
            )
    top = list(tree)
    for layer in range(layers - 1):
        for i in range(nodes(layer), nodes(layer + 1)):
            first = i * b + 1
            below = tree[first]
            for j in range(first + 1, first + b):
                below = add(below, tree[j])
            correction = z3.fpSub(_RNE, top[i], below)
            total_var = var[first]
            for j in range(first + 1, first + b):
                total_var = z3.simplify(add(total_var, var[j]))
            for j in range(first, first + b):
                moved = z3.fpDiv(_RNE, z3.fpMul(_RNE, correction, var[j]), total_var)
                # the code skips a zero correction; adding +-0 to a node changes only a zero's sign
                top[j] = z3.If(z3.fpIsZero(correction), top[j], add(top[j], moved))
    return top[nodes(layers - 1) : size - zeros]


def _cast(value: int, TOA: str) -> float:
    from certdp.transformations._postprocess.arguments import to_float

    return float(to_float(value, TOA))


def _binding(TOA: str) -> Obligation:
    from .make_consistent_b_ary_tree import make_consistent_b_ary_tree

    def violation():
        sort = float_sort(TOA)
        for b, probe in PROBES:
            out = make_consistent_b_ary_tree(b, TIA="i64", TOA=TOA)(probe)
            model = tree_model([float_value(_cast(v, TOA), sort) for v in probe], b, TOA)
            for o, m in zip(out, model, strict=True):
                value = z3.simplify(m)
                same = (
                    z3.is_true(z3.simplify(z3.fpIsNaN(value)))
                    if math.isnan(o)
                    else z3.is_true(z3.simplify(z3.fpEQ(value, float_value(o, sort))))
                )
                if not same:
                    return z3.BoolVal(True), lambda _m, p=probe, c=out: {"probe": p, "code": c}
        return z3.BoolVal(False), lambda _m: {}

    return Obligation(
        constructor="make_consistent_b_ary_tree",
        claim=f"binding {TOA}: code = model on {len(PROBES)} probe trees",
        format=TOA, size=13, violation=violation,
    )  # fmt: skip


def _consistent_tree(b: int, m: int, sort, limit: int):
    """Symbolic leaves and the consistent tree above them (each parent the sum of its
    children, exact below ``b * limit`` per level), with the integrality and size conditions."""

    def nodes(layers):
        return (b**layers - 1) // (b - 1)

    layers = 1
    while nodes(layers) < m:
        layers += 1
    first_leaf = nodes(layers - 1)
    leaves = [z3.FP(f"leaf{i}", sort) for i in range(m - first_leaf)]
    present = leaves + [z3.FPVal(0.0, sort)] * (nodes(layers) - m)
    tree = [None] * first_leaf + present
    for i in range(first_leaf - 1, -1, -1):
        total = tree[i * b + 1]
        for j in range(i * b + 2, i * b + b + 1):
            total = z3.fpAdd(_RNE, total, tree[j])
        tree[i] = total
    bound = z3.FPVal(float(limit), sort)
    condition = z3.And(*[
        z3.And(z3.fpEQ(z3.fpRoundToIntegral(z3.RTZ(), x), x), z3.fpLEQ(z3.fpAbs(x), bound))
        for x in leaves
    ])  # fmt: skip
    return tree[:m], leaves, condition


def _fixed_point(TOA: str, b: int, m: int) -> Obligation:
    def violation():
        sort = float_sort(TOA)
        # leaves of magnitude <= 2**K / b**layers: every exact sum above them is below 2**K
        tree, leaves, condition = _consistent_tree(b, m, sort, 2 ** K[TOA] // b**3)
        out = tree_model(tree, b, TOA)
        unchanged = z3.And(*[z3.fpEQ(o, x) for o, x in zip(out, leaves)])
        return z3.And(condition, z3.Not(unchanged)), lambda model: {"model": str(model)}

    return Obligation(
        constructor="make_consistent_b_ary_tree",
        claim=f"fixed point {TOA} b={b} m={m}: a consistent integer tree is returned unchanged",
        format=TOA, size=m, violation=violation, solver="bitwuzla",
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_consistent_b_ary_tree" not in names:
        return []
    found = [_binding(TOA) for TOA in FORMATS]
    found += [_fixed_point(TOA, b, m) for TOA, b, m in SHAPES]
    return found


MODELLED = {
    "make_consistent_b_ary_tree": [
        "transformations/consistent_b_ary_tree/make_consistent_b_ary_tree.py",
        "transformations/_postprocess/arguments.py",
        "core/postprocess.py",
    ]
}

SCOPE = {
    "make_consistent_b_ary_tree": Scope(
        formats=FORMATS,
        sizes=tuple(sorted({m for _, _, m in SHAPES})),
        bound_to_code="the real make_consistent_b_ary_tree(b, TIA='i64', TOA) is built for "
        "b = 2 and 3 and run on the probe trees listed in smt_model.py (lengths 1 to 13, "
        "negative values, values whose cast to TOA rounds); its leaves must equal the model's "
        "bit for bit",
        bit_precise=("every consistent tree of integers (leaves of magnitude at most "
                     "2**K / b**3, K = 12 for f32 and 40 for f64) with (TOA, b, m) in "
                     "(f32, 2, 3), (f32, 3, 4), (f64, 3, 4) is returned unchanged by the model",),
        assumed=("the code is tied to the model only on the probe trees; elsewhere by the "
                 "hand proof and the contract's exact replay on random trees",
                 "no error bound is claimed for inconsistent trees (consistency after the "
                 "projection holds in exact arithmetic, up to rounding in floats)"),
        instances="binding: TOA f32 and f64; fixed point: (TOA, b, m) = (f32, 2, 3), "
        "(f32, 3, 4), (f64, 3, 4) (larger trees and f64 with b = 2 timed out: not claimed)",
    )
}  # fmt: skip
