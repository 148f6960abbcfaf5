"""Hypothesis strategies for members of domains and for neighbouring inputs.

``neighbours(domain, metric, d_in)`` draws pairs ``(x, x')`` of members of
``domain`` with ``metric.distance(x, x') <= d_in``; the distance is checked
exactly on every draw, so a pair it yields is a valid neighbour by
construction, not by trust in the generator.
"""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import strategies as st

from certdp.core.domains import AtomDomain, VectorDomain
from certdp.core.metrics import (
    AbsoluteDistance,
    InsertDeleteDistance,
    L1Distance,
    L2Distance,
    SymmetricDistance,
)

__all__ = ["members", "datasets", "neighbours", "distances", "register_neighbours"]


def members(domain: AtomDomain) -> st.SearchStrategy:
    """Members of an atom domain, biased towards its bounds and special values."""
    T = domain.T
    if T.name == "bool":
        return st.booleans()
    if T.name == "String":
        return st.text(max_size=4)
    lower = T.min if domain.bounds is None else domain.bounds[0]
    upper = T.max if domain.bounds is None else domain.bounds[1]
    if T.is_integer:
        return st.one_of(st.sampled_from([lower, upper]), st.integers(lower, upper))
    width = 32 if T.name == "f32" else 64
    unbounded = domain.bounds is None
    floats = st.floats(
        min_value=None if unbounded else lower,
        max_value=None if unbounded else upper,
        allow_nan=domain.nan,
        allow_infinity=unbounded,
        width=width,
    )
    special = [lower, upper, 0.0, -0.0] if not unbounded else [0.0, -0.0, 1.0, -1.0]
    special = [value for value in special if domain.member(value)]
    return st.one_of(st.sampled_from(special), floats) if special else floats


def datasets(domain: VectorDomain, max_size: int = 12) -> st.SearchStrategy:
    """Members of a vector domain (of its fixed size when it has one)."""
    elements = members(domain.element_domain)
    if domain.size is not None:
        return st.lists(elements, min_size=domain.size, max_size=domain.size)
    return st.lists(elements, max_size=max_size)


def distances(metric) -> st.SearchStrategy:
    """Plausible ``d_in`` values for a metric."""
    if isinstance(metric, (SymmetricDistance, InsertDeleteDistance)):
        return st.integers(0, 6)
    return st.one_of(st.sampled_from([0, 1]), st.fractions(0, 10, max_denominator=64).map(float))


def _up_to(limit: int) -> st.SearchStrategy:
    """An integer in [0, limit], drawn at ``limit`` half the time: the tightest pairs use the whole budget."""
    return st.one_of(st.just(limit), st.integers(0, limit))


@st.composite
def _edited(draw, domain: VectorDomain, d_in: int, ordered: bool, max_size: int):
    """Apply at most ``d_in`` record insertions/deletions (substitutions on sized domains)."""
    x = draw(datasets(domain, max_size))
    x_prime = list(x)
    elements = members(domain.element_domain)
    if domain.size is not None:
        # a change of one record is a deletion and an insertion: distance 2
        for _ in range(draw(_up_to(min(d_in // 2, len(x))))):
            removed = draw(st.integers(0, len(x_prime) - 1))
            del x_prime[removed]
            x_prime.insert(draw(st.integers(0, len(x_prime))), draw(elements))
    else:
        removals = draw(st.integers(0, min(d_in, len(x))))
        for _ in range(removals):
            del x_prime[draw(st.integers(0, len(x_prime) - 1))]
        for _ in range(draw(_up_to(d_in - removals))):
            x_prime.insert(draw(st.integers(0, len(x_prime))), draw(elements))
    if not ordered:
        x_prime = draw(st.permutations(x_prime))
    return x, list(x_prime)


@st.composite
def _perturbed(draw, domain, metric, d_in):
    budget = Fraction(d_in)
    if isinstance(domain, AtomDomain):
        x = draw(members(domain))
        x_prime = draw(_scalar_near(domain, x, budget))
        return x, x_prime
    x = draw(datasets(domain))
    x_prime = list(x)
    for index in range(len(x)):
        if budget <= 0:
            break
        x_prime[index] = draw(_scalar_near(domain.element_domain, x[index], budget))
        # spending the L1 budget also keeps the L2 distance within it (||v||_2 <= ||v||_1)
        if isinstance(x[index], (int, float)) and math.isfinite(x[index]):  # else x' == x
            budget -= abs(Fraction(x_prime[index]) - Fraction(x[index]))
    return x, x_prime


def _scalar_near(domain: AtomDomain, x, budget: Fraction) -> st.SearchStrategy:
    if not (isinstance(x, (int, float)) and math.isfinite(x)) or budget == 0:
        return st.just(x)
    if domain.T.is_integer:
        radius = int(budget)
        return st.integers(x - radius, x + radius).filter(domain.member)
    if domain.T.name == "f32":
        # hypothesis needs f32 bounds: round the interval inwards
        from certdp.numeric import round_rational

        low = round_rational(Fraction(x) - budget, "f32", "up")
        high = round_rational(Fraction(x) + budget, "f32", "down")
    else:
        low, high = float(Fraction(x) - budget), float(Fraction(x) + budget)
    return st.one_of(
        st.sampled_from([low, high, x]),
        st.floats(low, high, width=32 if domain.T.name == "f32" else 64),
    ).filter(domain.member)


_NEIGHBOUR_HOOKS: list[tuple[type, object]] = []


def register_neighbours(domain_type: type, pairs) -> None:
    """Let :func:`neighbours` draw pairs for members of ``domain_type``.

    ``pairs(domain, metric, d_in, max_size)`` returns a strategy of candidate pairs; the
    pairs are still checked for membership and distance by :func:`neighbours`.
    """
    _NEIGHBOUR_HOOKS.append((domain_type, pairs))


def neighbours(domain, metric, d_in, max_size: int = 12) -> st.SearchStrategy:
    """Pairs ``(x, x')`` of members of ``domain`` at ``metric``-distance at most ``d_in``."""
    hooks = [pairs for domain_type, pairs in _NEIGHBOUR_HOOKS if isinstance(domain, domain_type)]
    if hooks:
        pairs = hooks[-1](domain, metric, d_in, max_size)
    elif isinstance(metric, (SymmetricDistance, InsertDeleteDistance)):
        pairs = _edited(domain, d_in, isinstance(metric, InsertDeleteDistance), max_size)
    elif isinstance(metric, (AbsoluteDistance, L1Distance, L2Distance)):
        pairs = _perturbed(domain, metric, d_in)
    else:
        raise TypeError(f"no neighbour strategy for {metric}")

    def valid(pair) -> bool:
        x, x_prime = pair
        return domain.member(x) and domain.member(x_prime) and metric.close(x, x_prime, d_in)

    return pairs.filter(valid)
