"""Coupled stability of a randomised target transformation (resize), from its outputs.

The target's randomness cannot be enumerated, so its output distributions ``P`` (on ``x``)
and ``Q`` (on ``x'``) are sampled.  Two numbers are reported:

* the smallest coupled distance of the two *empirical* distributions, computed exactly with
  certdp's transportation check (:func:`certdp.contracts.coupling.smallest_coupled_distance`);
* a certificate that no coupling of the *true* distributions is ``map(d)``-close.  The first
  ``N1`` draws on ``x`` fix a set ``S``; if ``N2`` further draws all fall in ``S``, then
  ``P(outside S) <= ln(1/alpha) / N2`` except with probability ``alpha``.  Let ``A`` be the
  outputs on ``x'`` further than ``map(d)`` from every member of ``S``.  A ``map(d)``-close
  coupling would ship all of ``Q(A)`` to outputs outside ``S``, so ``Q(A) <= P(outside S)``;
  a Hoeffding lower bound of ``Q(A)`` above that refutes every such coupling, with error
  probability at most ``2 alpha``.

A violation is reported only with the certificate.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from certdp.contracts.coupling import smallest_coupled_distance
from certdp.core.metrics import record_key

from .distances import for_target
from .pairs import resize_pairs
from .search import (
    Counterexample,
    SearchResult,
    _target_member,
    _why,
    exceeds,
    output_metric,
)

__all__ = ["ALPHA", "certify", "search_coupling", "Draws", "output_key", "exceeds_value"]

ALPHA = 1e-6
#: Draws per side of the cheap screen that picks the pairs worth a certificate.
SCREEN = 30


@dataclass(frozen=True)
class Draws:
    """How many outputs are drawn: ``first`` fix the support on x, ``confirm`` must all land
    in it, ``other`` are drawn on x'."""

    first: int
    confirm: int
    other: int


FULL = Draws(200, 1000, 2000)
#: 1600 draws on x': with 800, OpenDP's resize (#2927: a far output with probability 1/6, 102
#: of 800 needed) went uncertified, and its reproducer unreproduced, with probability 9e-4
#: (exact binomial tail); with 1600 (161 needed) with probability 1e-13.
QUICK = Draws(60, 400, 1600)


def output_key(output):
    """The identity of an output: its records' keys in order (a dataset or vector), or the
    record key of a scalar."""
    if isinstance(output, (list, tuple, np.ndarray)):
        return tuple(record_key(record) for record in list(output))
    return record_key(output)


_key = output_key


def _empirical(outputs: list) -> list:
    counts = Counter(_key(output) for output in outputs)
    first = {}
    for output in outputs:
        first.setdefault(_key(output), output)
    return [(first[key], Fraction(count, len(outputs))) for key, count in counts.items()]


def exceeds_value(distance, claimed) -> bool:
    """Exactly: is the (exact) ``distance`` above the ``claimed`` map value?"""
    import sympy

    from certdp.contracts.contract import as_rational

    if distance == math.inf or distance == sympy.oo:
        return claimed != math.inf
    return bool(sympy.Gt(as_rational(distance), as_rational(claimed)))


def certify(run_x, run_x_prime, metric, claimed, draws: Draws):
    """Sample both sides; return ``(certified, details)`` where details holds the exact
    empirical coupled distance, the far fraction and both bounds."""
    support = {}
    for _ in range(draws.first):
        output = run_x()
        support.setdefault(_key(output), output)
    confirmed = [run_x() for _ in range(draws.confirm)]
    if any(_key(output) not in support for output in confirmed):
        return False, None  # the support on x is not pinned down: no certificate
    others = [run_x_prime() for _ in range(draws.other)]
    far = [
        output
        for output in others
        if all(exceeds(metric, y, output, claimed)[0] for y in support.values())
    ]
    outside = math.log(1 / ALPHA) / draws.confirm
    lower = len(far) / draws.other - math.sqrt(math.log(1 / ALPHA) / (2 * draws.other))
    P = _empirical(list(support.values()) + confirmed)
    Q = _empirical(others)
    coupled = smallest_coupled_distance(P, Q, metric)
    details = {
        "coupled": coupled,
        "far": len(far),
        "others": draws.other,
        "outside_bound": outside,
        "far_lower_bound": lower,
        "witness": far[0] if far else None,
    }
    return lower > outside, details


def search_coupling(built, space, size: int, quick: bool) -> tuple[SearchResult, dict | None]:
    """Try resize pairs around ``size``: cheap screen first, then the certificate."""
    domain, in_metric = space
    metric = output_metric(built.output_metric)
    result = SearchResult()
    start = time.perf_counter()
    draws = QUICK if quick else FULL
    for x, x_prime in resize_pairs(domain, size):
        if not (_target_member(built, x) and _target_member(built, x_prime)):
            continue
        try:
            d_in = for_target(
                getattr(built, "input_metric", in_metric), in_metric.distance(x, x_prime)
            )
            claimed = built.map(d_in)
        except Exception as error:  # no claim on this pair: counted unchecked, both ways
            result.pairs += 2
            result.skip(_why("the target's map refuses the pair's distance", error))
            result.skip(_why("the target's map refuses the pair's distance", error))
            continue
        for a, b in ((x, x_prime), (x_prime, x)):
            result.pairs += 1
            screen_p = [built(a) for _ in range(SCREEN)]
            screen_q = [built(b) for _ in range(SCREEN)]
            coupled = smallest_coupled_distance(_empirical(screen_p), _empirical(screen_q), metric)
            if not exceeds_value(coupled, claimed):
                continue
            certified, details = certify(
                lambda a=a: built(a), lambda b=b: built(b), metric, claimed, draws
            )
            if certified:
                result.found = Counterexample(a, b, d_in, claimed, details["coupled"])
                result.seconds = time.perf_counter() - start
                return result, details
    result.seconds = time.perf_counter() - start
    return result, None
