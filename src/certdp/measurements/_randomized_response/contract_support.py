"""Exact max-divergence between two finite output distributions (the contracts of the
randomized-response mechanisms compare each map with it)."""

from __future__ import annotations

from fractions import Fraction

import sympy


def max_divergence(law: dict, law_prime: dict):
    """``(D, witness)``: the larger of ``D(law || law')`` and ``D(law' || law)`` (exact, sympy)
    and an outcome attaining it; ``oo`` when one law charges an outcome the other does not."""
    best, witness = Fraction(1), None  # the largest ratio max(a / b, b / a) so far
    for outcome in set(law) | set(law_prime):
        a, b = Fraction(law.get(outcome, 0)), Fraction(law_prime.get(outcome, 0))
        if a == b:
            continue
        if a == 0 or b == 0:
            return sympy.oo, outcome
        ratio = max(a / b, b / a)
        if ratio > best:
            best, witness = ratio, outcome
    return sympy.log(sympy.Rational(best.numerator, best.denominator)), witness
