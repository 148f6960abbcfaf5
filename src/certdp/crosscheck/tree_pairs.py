"""The pairs that test a b-ary tree of counts, which the generic boundary search does not try.

For a point with ``search == "b-ary-tree"`` and ``tree = (leaf_count, branching_factor, T)``:

* the **wrap** pair: ``x = [max, 0, 0, ...]`` and ``x' = [max, 1, 0, ...]`` (``max`` the largest
  value of ``T``; also ``[min, 0, ...]`` against ``[min, -1, ...]`` for a signed ``T``), one apart
  in L1 and in L2.  Leaves 0 and 1 share their parent (``branching_factor >= 2``), whose sum
  crosses the type's limit on ``x'`` only: a tree that wraps that sum around moves by about
  ``2**bits``, far beyond any map of ``1``;
* the **spread** pairs, one per integer ``d > 0`` of the point's distances: ``x = 0^n`` and
  ``x'`` the leaves ``[c+1] * j + [c] * (k-j) + [0] * (n-k)`` whose squared norm is exactly
  ``d**2`` (so they are ``d`` apart in L2) and whose tree moves the most (by the tree's own
  block sums, computed here exactly).  Leaves packed at the left share the most branches, so
  the tree moves by up to ``d * sqrt(S)`` instead of ``d * sqrt(L)`` (``S``, ``L`` as in
  make_b_ary_tree.tex); a map ``d * L`` is below that when ``S > L**2``.

Each pair is run in the target (its own function and its own ``map``); a pair whose outputs
are further apart than the target's map of their distance is a violation, with a reproducer
in the target's API alone (``reproducer.pair_script``).
"""

from __future__ import annotations

from .search import Counterexample, exceeds, output_metric

__all__ = ["wrap_pairs", "spread_pair", "tree_squared", "check_tree"]


def _limits(T: str) -> tuple[int, int]:
    bits = int(T[1:]) if T[1:].isdigit() else 64  # usize / isize: 64 bits
    if T.startswith("u"):
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def wrap_pairs(leaf_count: int, T: str) -> list[tuple[list, list]]:
    """The pairs next to the type's limits (none for one leaf: the tree is the leaf)."""
    if leaf_count < 2:
        return []
    low, high = _limits(T)
    rest = [0] * (leaf_count - 2)
    found = [([high, 0] + rest, [high, 1] + rest)]
    if low < 0:
        found.append(([low, 0] + rest, [low, -1] + rest))
    return found


def tree_squared(delta: list[int], branching_factor: int) -> int:
    """The squared L2 norm of the tree over the leaves ``delta`` (every layer's block sums,
    the leaves included; no type limits: the exact integers)."""
    layer, total = list(delta), sum(v * v for v in delta)
    while len(layer) > 1:
        b = branching_factor
        layer = [sum(layer[i : i + b]) for i in range(0, len(layer), b)]
        total += sum(v * v for v in layer)
    return total


def spread_pair(leaf_count: int, branching_factor: int, d: int) -> tuple[list, list] | None:
    """``(0^n, x')``: ``x'`` of the form ``[c+1]*j + [c]*(k-j) + 0*(n-k)`` with squared norm
    exactly ``d**2`` whose tree moves the most (ties: the first found); ``None`` if no such
    vector fits in ``leaf_count`` leaves."""
    n, best, best_score = leaf_count, None, -1
    for c in range(d + 1):
        for k in range(1, n + 1):
            for j in range(k + 1):
                if (c + 1) ** 2 * j + c * c * (k - j) != d * d:
                    continue
                delta = [c + 1] * j + [c] * (k - j) + [0] * (n - k)
                score = tree_squared(delta, branching_factor)
                if score > best_score:
                    best, best_score = delta, score
    return None if best is None else ([0] * n, best)


def check_tree(built, space, tree: tuple, d_ins) -> tuple[list, int]:
    """``(found, tried)``: ``found`` holds ``(family, counterexample)`` for the first wrap pair
    and the first spread pair (``family`` ``"wrap"`` or ``"spread"``) on which the target's
    outputs are further apart than its own map; ``tried`` counts the pairs run."""
    _, in_metric = space
    out_metric = output_metric(built.output_metric)
    leaf_count, branching_factor, T = tree
    found, tried = [], 0
    if out_metric is None:
        return found, tried
    families = [("wrap", wrap_pairs(leaf_count, T))]
    spread = [
        spread_pair(leaf_count, branching_factor, d)
        for d in sorted({d for d in d_ins if isinstance(d, int) and d > 0})
    ]
    if "L2" in str(in_metric):
        families.append(("spread", [pair for pair in spread if pair is not None]))
    for family, pairs in families:
        for x, x_prime in pairs:
            tried += 1
            counterexample = _try(built, in_metric, out_metric, x, x_prime)
            if counterexample is not None:
                found.append((family, counterexample))
                break
    return found, tried


def _try(built, in_metric, out_metric, x, x_prime) -> Counterexample | None:
    d_in = in_metric.distance(x, x_prime)  # a Fraction (L1) or a sympy number (L2)
    if d_in == int(d_in):
        d_in = int(d_in)  # the target's integer metric takes a Python int only
    try:
        y, y_prime = built(x), built(x_prime)
        claimed = built.map(d_in)
        over, actual = exceeds(out_metric, y, y_prime, claimed)
    except Exception:
        return None  # the target refuses the data or the distance: it claims nothing there
    return Counterexample(x, x_prime, d_in, claimed, actual) if over else None
