"""Coupled stability, checked exactly on finite output distributions.

A randomised transformation is stable when the outputs on close inputs can be *coupled* to be
close (definitions document, "coupled stability").  For two finite distributions ``P`` and
``Q`` and a closeness relation, such a coupling exists exactly when a transportation problem
has a full flow (Strassen's theorem for finite spaces): ship the mass of every outcome of
``P`` to outcomes of ``Q`` that are close to it, meeting every demand of ``Q``.  The flow is
computed with integer capacities, so the answer is exact.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from certdp.core.errors import ContractError, shown
from certdp.core.metrics import SymmetricDistance, record_key

from .contract import StabilityViolation, TransformationContract, as_rational

__all__ = ["Outcome", "coupling_exists", "smallest_coupled_distance", "CoupledContract"]

#: An outcome of a finite distribution: a representative value and its exact probability.
Outcome = tuple


def _max_flow(supply: list[int], demand: list[int], edges: list[list[int]]) -> int:
    """The largest flow from the supplies to the demands along ``edges`` (left -> right lists),
    with unbounded edge capacities (Edmonds--Karp on the residual graph)."""
    left, right = len(supply), len(demand)
    source, sink = left + right, left + right + 1
    capacity: dict[tuple[int, int], int] = {}
    adjacent: list[list[int]] = [[] for _ in range(left + right + 2)]

    def add(u: int, v: int, c: int) -> None:
        if (u, v) not in capacity:
            adjacent[u].append(v)
            adjacent[v].append(u)
            capacity.setdefault((v, u), 0)
        capacity[(u, v)] = capacity.get((u, v), 0) + c

    infinite = sum(supply) + 1
    for i, s in enumerate(supply):
        add(source, i, s)
        for j in edges[i]:
            add(i, left + j, infinite)
    for j, d in enumerate(demand):
        add(left + j, sink, d)
    flow = 0
    while True:
        parent = {source: source}
        queue = deque([source])
        while queue and sink not in parent:
            u = queue.popleft()
            for v in adjacent[u]:
                if v not in parent and capacity[(u, v)] > 0:
                    parent[v] = u
                    queue.append(v)
        if sink not in parent:
            return flow
        path, v = [], sink
        while v != source:
            path.append((parent[v], v))
            v = parent[v]
        pushed = min(capacity[edge] for edge in path)
        for u, v in path:
            capacity[(u, v)] -= pushed
            capacity[(v, u)] += pushed
        flow += pushed


def coupling_exists(P: list[Outcome], Q: list[Outcome], close: Callable) -> bool:
    """Is there a coupling of the finite distributions ``P`` and ``Q`` (lists of
    ``(value, probability)``) supported on pairs ``(y, y')`` with ``close(y, y')``?"""
    return _coupled(P, Q, [[close(y, y_prime) for y_prime, _ in Q] for y, _ in P])


def _coupled(P: list[Outcome], Q: list[Outcome], allowed: list[list[bool]]) -> bool:
    denominator = math.lcm(*(Fraction(p).denominator for _, p in [*P, *Q]))
    supply = [int(Fraction(p) * denominator) for _, p in P]
    demand = [int(Fraction(q) * denominator) for _, q in Q]
    if sum(supply) != denominator or sum(demand) != denominator:
        raise ValueError("the outcome probabilities must sum to one")
    edges = [[j for j, ok in enumerate(row) if ok] for row in allowed]
    return _max_flow(supply, demand, edges) == denominator


def _merged(outcomes: list[Outcome], metric) -> list[Outcome]:
    """Outcomes at distance 0 from each other merged into one (their distances to every other
    value agree, by the triangle inequality): under the symmetric distance, order is forgotten."""
    if not isinstance(metric, SymmetricDistance):
        return outcomes
    merged: dict = {}
    for value, probability in outcomes:
        key = frozenset(Counter(record_key(record) for record in value).items())
        if key in merged:
            merged[key][1] += Fraction(probability)
        else:
            merged[key] = [value, Fraction(probability)]
    return [tuple(entry) for entry in merged.values()]


def smallest_coupled_distance(P: list[Outcome], Q: list[Outcome], metric):
    """The smallest ``d`` such that ``P`` and ``Q`` can be coupled ``d``-close under
    ``metric`` (a distance between two outcomes, so the minimum is attained)."""
    P, Q = _merged(P, metric), _merged(Q, metric)
    distance = [[metric.distance(y, y_prime) for y_prime, _ in Q] for y, _ in P]
    candidates = sorted({d for row in distance for d in row})
    low, high = 0, len(candidates) - 1  # the largest candidate always admits a coupling
    while low < high:
        middle = (low + high) // 2
        allowed = [[d <= candidates[middle] for d in row] for row in distance]
        if _coupled(P, Q, allowed):
            high = middle
        else:
            low = middle + 1
    return candidates[low]


@dataclass
class CoupledContract(TransformationContract):
    """Contract of a randomised transformation: the outputs on every drawn pair of close
    inputs must admit a coupling that is ``map(d_in)``-close (checked exactly).

    ``outcomes(built, x)`` returns the exact output distribution of ``built`` on ``x`` as a
    list of ``(value, probability)``.
    """

    outcomes: Callable | None = None

    def check_pair(self, built, kwargs, x, x_prime, d_in, stated) -> float:
        P, Q = self.outcomes(built, x), self.outcomes(built, x_prime)
        for value, _ in [*P, *Q]:
            if not built.output_domain.member(value):
                raise ContractError(
                    f"{self.name}: output {shown(value)} is not in {built.output_domain}",
                    condition="output-domain",
                )
        metric = built.output_metric
        smallest = smallest_coupled_distance(P, Q, metric)
        if as_rational(smallest) > as_rational(stated):
            raise StabilityViolation(
                x=x,
                x_prime=x_prime,
                d_in=d_in,
                d_out_observed=smallest,
                d_out_stated=stated,
            )
        return float(as_rational(smallest) / as_rational(stated)) if stated else 0.0
