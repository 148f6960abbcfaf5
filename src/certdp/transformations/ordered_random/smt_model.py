"""SMT model of ``make_ordered_random`` and its bounded theorem.

The function is modelled as Fisher--Yates with its draws given (:func:`fisher_yates_model`): for
``i = m-1 .. 1`` the draw ``j_i`` in ``0..i`` swaps positions ``i`` and ``j_i``.  Every obligation
ties the real function to the model: it runs the built transformation on a probe vector with
every sequence of draws scripted (``samplers.shuffle.entropy_source`` replaced for that call
only) and requires the model's output.  Records are i32 bit-vectors compared by equality; the
distances are the z3 terms of :mod:`certdp.contracts.smt_datasets`.  Obligations, for the real
constructor under each input metric:

* ``uniform m``: the ``m!`` draw sequences give ``m!`` different orders (enumerated, not SMT),
  so a uniform draw sequence gives a uniform order (the Lemma of samplers/shuffle.tex).
* ``insertion m``: an order of ``m`` labels and a slot among ``m + 1`` determine an order of
  ``m + 1`` labels one to one (enumerated): the proof's coupling step for symmetric input.
* ``support`` (SMT): for all records ``x``, ``x'`` at input distance ``<= d_in``, some order of
  ``x'`` is within the code's ``map(d_in)`` of ``x`` in the output metric.  Since ``x`` is any
  sequence, it also stands for every outcome of the shuffle of ``x``; the couplings themselves
  (which order of ``x'`` goes with which order of ``x``) are the hand proof's.
"""

from __future__ import annotations

from itertools import permutations, product

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import Scope
from certdp.contracts.smt_datasets import _term_of

__all__ = ["fisher_yates_model", "draw_sequences", "obligations", "MODELLED", "SCOPE", "PROBES"]

LENGTHS = (0, 1, 2, 3, 4)
D_INS = (0, 1, 2, 3, 4)
PROBES = [11, -3, 2**31 - 1, -(2**31)]
_METRICS = ("symmetric", "change_one")


def fisher_yates_model(records, draws) -> list:
    """``shuffled`` with ``draws[k]`` (in ``0..i`` for ``i = m-1-k``) for the ``k``-th draw."""
    result = list(records)
    for k, i in enumerate(range(len(result) - 1, 0, -1)):
        j = draws[k]
        result[i], result[j] = result[j], result[i]
    return result


def draw_sequences(m: int):
    """Every sequence of draws the loop can make on ``m`` records."""
    return list(product(*[range(i + 1) for i in range(m - 1, 0, -1)]))


class _Scripted:
    def __init__(self, draws):
        self.draws, self.asked = list(draws), []

    def below(self, n: int) -> int:
        self.asked.append(n)
        return self.draws[len(self.asked) - 1]


def run_scripted(built, records, draws):
    """The built transformation's output on ``records`` with the shuffle's draws scripted, and
    the bounds the code asked for."""
    from certdp.samplers import shuffle

    scripted = _Scripted(draws)
    saved = shuffle.entropy_source
    shuffle.entropy_source = lambda: scripted
    try:
        output = built(records)
    finally:
        shuffle.entropy_source = saved
    return output, scripted.asked


def _build(metric: str):
    from certdp.core.change_metrics import change_one_distance
    from certdp.core.domains import atom_domain, vector_domain
    from certdp.core.metrics import symmetric_distance

    from .make_ordered_random import make_ordered_random

    chosen = symmetric_distance() if metric == "symmetric" else change_one_distance()
    return make_ordered_random(vector_domain(atom_domain(T="i32")), chosen)


def _tie_cases(built, m: int):
    """Violations of the tie: the code's output under every scripted draw sequence on the
    first ``m`` probes must be the model's, the code asking for ``below(i + 1)``,
    ``i = m-1 .. 1``."""
    probes = PROBES[:m]
    expected_bounds = [i + 1 for i in range(m - 1, 0, -1)]
    for draws in draw_sequences(m):
        output, asked = run_scripted(built, list(probes), draws)
        if output != fisher_yates_model(probes, draws) or asked != expected_bounds:
            return [(z3.BoolVal(True), lambda _m, d=draws, o=output: {"draws": d, "code": o})]
    return []


def _uniform_instance(metric: str, m: int) -> Obligation:
    def violation():
        built = _build(metric)
        cases = _tie_cases(built, m)
        orders = {tuple(fisher_yates_model(list(range(m)), d)) for d in draw_sequences(m)}
        all_orders = set(permutations(range(m)))
        broken = orders != all_orders or len(draw_sequences(m)) != len(all_orders)
        return cases + [(z3.BoolVal(broken), lambda _m: {"m": m, "orders": len(orders)})]

    return Obligation(
        constructor="make_ordered_random",
        claim=f"uniform {metric} m={m}: the code under every scripted draw sequence is the "
        "model, and the m! sequences give the m! orders (enumerated)",
        format="positions",
        size=m,
        violation=violation,
    )


def _insertion_instance(m: int) -> Obligation:
    def violation():
        seen = {}
        for order in permutations(range(m)):
            for slot in range(m + 1):
                seen[(order, slot)] = order[:slot] + (m,) + order[slot:]
        images = set(seen.values())
        broken = images != set(permutations(range(m + 1))) or len(images) != len(seen)
        return [(z3.BoolVal(broken), lambda _m: {"m": m})]

    return Obligation(
        constructor="make_ordered_random",
        claim=f"insertion m={m}: (order of m labels, slot of m+1) -> order of m+1 labels is one "
        "to one and onto (enumerated)",
        format="positions",
        size=m,
        violation=violation,
    )


def _support_instance(metric: str, m: int, m_prime: int, d_in: int) -> Obligation:
    def violation():
        built = _build(metric)
        cases = _tie_cases(built, max(m, m_prime))
        stated = built.map(d_in)
        distance_in = _term_of(built.input_metric)
        distance_out = _term_of(built.output_metric)
        x = [z3.BitVec(f"x{k}", 32) for k in range(m)]
        y = [z3.BitVec(f"y{k}", 32) for k in range(m_prime)]
        before = distance_in(x, y)
        if before is None:  # infinitely far: never d_in-close
            return cases
        far = []
        for order in permutations(range(m_prime)):
            after = distance_out(x, [y[i] for i in order])
            far.append(z3.BoolVal(True) if after is None else after > stated)
        formula = z3.And(before <= d_in, *far)
        return cases + [(formula, lambda model: {"x": x, "x_prime": y, "map": stated})]

    return Obligation(
        constructor="make_ordered_random",
        claim=f"support {metric} |x|={m} |x'|={m_prime} d_in={d_in}: some order of x' is within "
        "map(d_in) of x",
        format="i32",
        size=max(m, m_prime),
        violation=violation,
    )


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_ordered_random" not in names:
        return []
    result = [_uniform_instance(metric, m) for metric in _METRICS for m in LENGTHS]
    result += [_insertion_instance(m) for m in LENGTHS[:-1]]
    for d_in in D_INS:
        for m in LENGTHS:
            result.append(_support_instance("change_one", m, m, d_in))
            for m_prime in LENGTHS:
                result.append(_support_instance("symmetric", m, m_prime, d_in))
    return result


MODELLED = {
    "make_ordered_random": [
        "transformations/ordered_random/make_ordered_random.py",
        "samplers/shuffle.py",
    ]
}

SCOPE = {
    "make_ordered_random": Scope(
        formats=("i32", "positions"),
        sizes=LENGTHS,
        bound_to_code="the real make_ordered_random is built under each input metric; its "
        "function is run on the probe vector (11, -3, 2**31-1, -2**31) cut to each length with "
        "every sequence of the shuffle's draws scripted and must return the model's order; its "
        "map is called at each d_in and its input and output metrics are read from it",
        bit_precise=(
            "every scripted draw sequence gives the model's output, and the m! sequences give "
            "the m! orders (m <= 4)",
            "for all i32 records x, x' at input distance <= d_in, some order of x' is within "
            "map(d_in) of x (change-one to Hamming: |x| = |x'| <= 4; symmetric to "
            "insert-delete: |x|, |x'| <= 4)",
        ),
        assumed=(
            "the coupling of the two uniform orders (which order of x' goes with which order of "
            "x) is the hand proof's; the model checks its one-to-one insertion step and the "
            "support, not the coupling's law",
            "the tie is on the probe vector; other records are covered by the hand proof and "
            "the tests",
        ),
        instances="lengths 0..4, d_in = 0..4",
    )
}
