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

Each pair is run in the target (its own function and its own ``map``, given the least value
of the target's distance type at or above the pair's exact distance, as the generic search
does: ``distances.for_target``); a pair whose outputs are further apart than the target's map
of their distance is a violation, with a reproducer in the target's API alone
(``reproducer.pair_script``).  A pair the target gives no claim on (it refuses an input or the
distance) is counted unchecked, with the reason, never as passing.
"""

from __future__ import annotations

from .distances import UnrepresentableDistance, for_target
from .search import Counterexample, SearchResult, _why, exceeds, output_metric

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


def check_tree(built, space, tree: tuple, d_ins) -> tuple[list, SearchResult]:
    """``(found, searched)``: ``found`` holds ``(family, counterexample)`` for the first wrap
    pair and the first spread pair (``family`` ``"wrap"`` or ``"spread"``) on which the target's
    outputs are further apart than its own map; ``searched`` counts the pairs run
    (``searched.pairs``, the unchecked ones included) and, apart, those the target gave no claim
    on (``searched.unchecked``, with ``searched.reasons``): it refused an input or the
    distance, or the exact distance has no value in the target's distance type.  An unchecked
    pair is never counted as passing."""
    _, in_metric = space
    out_metric = output_metric(built.output_metric)
    leaf_count, branching_factor, T = tree
    found, searched = [], SearchResult()
    if out_metric is None:
        return found, searched
    families = [("wrap", wrap_pairs(leaf_count, T))]
    spread = [
        spread_pair(leaf_count, branching_factor, d)
        for d in sorted({d for d in d_ins if isinstance(d, int) and d > 0})
    ]
    if "L2" in str(in_metric):
        families.append(("spread", [pair for pair in spread if pair is not None]))
    for family, pairs in families:
        for x, x_prime in pairs:
            searched.pairs += 1
            outcome = _try(built, in_metric, out_metric, x, x_prime)
            if isinstance(outcome, str):
                searched.skip(outcome)
            elif outcome is not None:
                found.append((family, outcome))
                break
    return found, searched


def _try(built, in_metric, out_metric, x, x_prime) -> Counterexample | str | None:
    """A counterexample, ``None`` when the pair passed, or why it could not be checked."""
    exact = in_metric.distance(x, x_prime)  # a Fraction (L1) or a sympy number (L2)
    try:
        y, y_prime = built(x), built(x_prime)
    except Exception as error:
        return _why("the target refuses the input", error)
    try:
        d_in = for_target(getattr(built, "input_metric", in_metric), exact)
    except UnrepresentableDistance as error:
        return f"no distance to pass to the target's map: {error}"
    try:
        claimed = built.map(d_in)
    except Exception as error:
        what = f"the target's map refuses the distance (a Python {type(d_in).__name__})"
        return _why(what, error)
    try:
        over, actual = exceeds(out_metric, y, y_prime, claimed)
    except (TypeError, ValueError) as error:
        return _why("the outputs cannot be compared with the map", error)
    return Counterexample(x, x_prime, d_in, claimed, actual) if over else None
