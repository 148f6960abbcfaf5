"""SMT model of ``make_b_ary_tree`` and its bounded theorem.

Model of the function (``function`` in make_b_ary_tree.py), written from the proof's block
description rather than from the code's loop: with ``L`` the least ``k >= 0`` such that
``b**k >= n``, plus one, the branch ``j`` of layer ``k < L - 1`` is the exact sum of the leaves
``i`` with ``j * b**(L-1-k) <= i < (j+1) * b**(L-1-k)`` among the first ``min(m, n)`` counts,
saturated to the range of ``T``; the leaves follow.  Counts are ``T``-bit vectors (``i8`` and
``u8``, where saturation is reachable), sign- or zero-extended to ``WIDE`` bits, in which every
sum below is exact; squares are taken in a narrow width after the entries beyond the bound are
set apart.  Pure bit-vector formulas: solved by bitwuzla.  ``tests/prove/test_b_ary_tree_model.py`` checks the model
against the code on concrete data.

Theorem, the map value being the real constructor's ``map(d_in)``:

* ``domain``: every output entry is a value of ``T``.
* ``stability`` (L1 and L2 of ``i32``; ``d_in`` 1 and 3; ``n, b`` in ``_SHAPES`` and data
  lengths ``m = n`` and ``n + 1`` (``2, 3, 4`` at ``n = 3``, one shorter than ``n``); and ``u8``
  alone at ``n = b = m = 4``, ``d_in = 2``): for every pair of count vectors of length ``m`` within
  ``d_in`` (L1: sum of absolute differences; L2: sum of squared differences at most
  ``d_in**2``), the trees are ``map(d_in)``-close (L2 compared as sums of squares with
  ``map(d_in)**2``, exact since the map is an integer).
"""

from __future__ import annotations

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope
from certdp.core.types import carrier

__all__ = ["WIDE", "model_tree", "instance", "obligations", "MODELLED", "SCOPE"]

#: Width of the exact sums: sums of 6 counts of 8 bits and of 16 differences of 9 bits fit.
WIDE = 16
_SHAPES = [(1, 2), (2, 2), (3, 2), (2, 5)]
_TYPES = ["i8", "u8"]


def _layers(n: int, b: int) -> int:
    k = 0
    while b**k < n:
        k += 1
    return k + 1


def _widen(value, T):
    return z3.SignExt(WIDE - T.bits, value) if T.is_signed else z3.ZeroExt(WIDE - T.bits, value)


def model_tree(values, n: int, b: int, T, saturate: bool = True) -> list:
    """The released tree of the ``T``-bit vectors ``values`` as ``WIDE``-bit terms;
    ``saturate=False`` leaves the branch sums unsaturated (a deliberately wrong model)."""
    leaves = [_widen(v, T) for v in values[:n]]
    L = _layers(n, b)
    low, high = z3.BitVecVal(T.min, WIDE), z3.BitVecVal(T.max, WIDE)
    zero = z3.BitVecVal(0, WIDE)
    tree = []
    for k in range(L - 1):
        span = b ** (L - 1 - k)
        for j in range(b**k):
            s = sum(leaves[j * span : (j + 1) * span], zero)
            if saturate:
                s = z3.If(s < low, low, z3.If(s > high, high, s))
            tree.append(s)
    return tree + leaves


def _absolute(a):
    return z3.If(a < 0, -a, a)


def _squares(differences, largest: int):
    """The sum of the squares of ``differences``, each assumed at most ``largest`` in absolute
    value, computed exactly in a width where that sum cannot wrap."""
    bits = max(largest.bit_length(), 1)
    narrow = 2 * bits + len(differences).bit_length() + 1
    small = [z3.ZeroExt(narrow - bits, z3.Extract(bits - 1, 0, _absolute(d))) for d in differences]
    total = sum((d * d for d in small), z3.BitVecVal(0, narrow))
    return z3.ZeroExt(WIDE - narrow, total) if narrow < WIDE else total


def _build(T, norm, n, b):
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import l1_distance, l2_distance

    from .make_b_ary_tree import make_b_ary_tree

    metric = (l1_distance if norm == "L1" else l2_distance)(T="i32")
    return make_b_ary_tree(vector_domain(atom_domain(T=T.name)), metric, n, b)


def instance(name, kind, n, b, m, norm="L1", d_in=1, saturate=True):
    """One obligation (``kind``: ``domain`` or ``stability``) at ``n`` leaves, branching
    factor ``b`` and data length ``m``; ``saturate=False`` makes it deliberately wrong."""
    T = carrier(name)
    built = _build(T, norm, n, b)
    bound = built.map(d_in) if kind == "stability" else None
    x = [z3.BitVec(f"x{i}", T.bits) for i in range(m)]
    x_prime = [z3.BitVec(f"y{i}", T.bits) for i in range(m)]

    def decode(model):
        if isinstance(model, dict):  # bitwuzla hands over {name: value}
            return {**{str(k): v for k, v in model.items()}, "d_in": d_in, "map": bound}

        def values(v):
            got = [model.eval(e, True) for e in v]
            return [g.as_signed_long() if T.is_signed else g.as_long() for g in got]

        return {"x": values(x), "x'": values(x_prime), "d_in": d_in, "map": bound}

    def domain():
        out = model_tree(x, n, b, T, saturate)
        low, high = z3.BitVecVal(T.min, WIDE), z3.BitVecVal(T.max, WIDE)
        return [(z3.Or(*(z3.Or(v < low, v > high) for v in out)), decode)]

    def stability():
        differences = [_widen(a, T) - _widen(c, T) for a, c in zip(x, x_prime)]
        trees = model_tree(x, n, b, T, saturate), model_tree(x_prime, n, b, T, saturate)
        out = [a - c for a, c in zip(*trees)]
        zero = z3.BitVecVal(0, WIDE)
        if norm == "L1":
            premise = sum((_absolute(d) for d in differences), zero) <= d_in
            far = sum((_absolute(d) for d in out), zero) > bound
        else:
            # every |difference| is at most d_in, so its square is taken in a narrow width
            premise = z3.And(
                *(_absolute(d) <= d_in for d in differences),
                _squares(differences, d_in) <= d_in * d_in,
            )
            # an entry beyond the bound is already too far; otherwise squares are narrow too
            far = z3.Or(*(_absolute(d) > bound for d in out), _squares(out, bound) > bound * bound)
        return [(z3.And(premise, far), decode)]

    claim = f"T={name} n={n} b={b} m={m} " + (
        "every entry is a value of T"
        if kind == "domain"
        else f"{norm}<i32> d_in={d_in}: trees map-close"
    )
    return Obligation(
        constructor="make_b_ary_tree",
        claim=claim + ("" if saturate else " WITHOUT saturation"),
        format=name,
        size=m,
        violation={"domain": domain, "stability": stability}[kind],
        solver="z3" if kind == "domain" else "bitwuzla",
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_b_ary_tree" not in names:
        return []
    result = []
    for name in _TYPES:
        for n, b in _SHAPES:
            for m in (n, n + 1) if n != 3 else (2, 3, 4):
                result.append(instance(name, "domain", n, b, m))
                for norm in ("L1", "L2"):
                    for d_in in (1, 3):
                        result.append(instance(name, "stability", n, b, m, norm, d_in))
    # sqrt(S) > L here (S = 5, L = 2): OpenDP 0.16's L2 map d_in * L is refuted at this shape
    for norm in ("L1", "L2"):
        result.append(instance("u8", "stability", 4, 4, 4, norm, 2))
    return result


MODELLED = {"make_b_ary_tree": ["transformations/b_ary_tree/make_b_ary_tree.py"]}

#: The data lengths m of the obligations (their ``size``): n and n + 1 per shape (2, 3, 4 for
#: n = 3), and 4 for the shape n = b = 4.
_LENGTHS = sorted({m for n, _ in _SHAPES for m in ((n, n + 1) if n != 3 else (2, 3, 4))} | {4})

SCOPE = {
    "make_b_ary_tree": Scope(
        formats=tuple(_TYPES),
        sizes=tuple(_LENGTHS),
        bound_to_code="the map only: the real make_b_ary_tree is built at each (T, n, b, metric) "
        "and its own map is called at each d_in; the tree is NOT the code's function but "
        "model_tree, rebuilt from the proof's block description (its own layer count), and is "
        "tied to the code by a hypothesis test only (tests/prove/test_b_ary_tree_model.py: "
        "model_tree equals the code's output on random i8 / u8 data of length 0 to n + 3, "
        "n in 1..12, b in 2..5), so an edit of the code's function alone is not seen by the "
        "solver",
        bit_precise=(
            "every pair of i8 / u8 count vectors of length m (n, n + 1; 2, 3, 4 for n = 3) "
            "within d_in, and their trees (exact sums, saturation to T) at n, b in "
            + ", ".join(f"({n}, {b})" for n, b in _SHAPES)
            + "; u8 at n = b = m = 4, d_in = 2",
        ),
        assumed=(
            "the function as the proof describes it (blocks of b**(L-1-k) leaves per branch), "
            "which tests/prove/test_b_ary_tree_model.py compares with the code on concrete data",
            "d_in an integer (the map's rounding up of a fractional d_in is proved on paper only)",
        ),
        instances="T: i8, u8 at (n, b) in "
        + ", ".join(f"({n}, {b})" for n, b in _SHAPES)
        + ", u8 only at n = b = 4; metric L1<i32>, L2<i32>; d_in 1 and 3 (2 at n = b = 4, u8); the "
        "dataset sizes N are the data lengths m (leaf_count n in 1, 2, 3, 4)",
    )
}
