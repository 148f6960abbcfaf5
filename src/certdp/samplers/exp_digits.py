"""Binary digits of ``exp(-x)`` for rational ``x > 0``, computed exactly with integers.

Guarantee (exp_digits.tex): ``exp_neg_enclosure(n, d, p)`` returns integers
``lo <= 2^p exp(-n/d) <= hi``; ``exp_neg_digits(n, d, m)`` returns
``floor(2^m exp(-n/d))`` exactly (for ``n, d >= 1``).  No floating point is used:
a Taylor series in exact rationals, then integer squarings rounded outward.
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = ["exp_neg_enclosure", "exp_neg_digits"]

# proof: begin exp-neg-enclosure
#: Extra bits carried through the squarings.
GUARD_BITS = 16  # label: guard-bits


def exp_neg_enclosure(n: int, d: int, precision: int) -> tuple[int, int]:
    """Integers ``lo <= 2^precision * exp(-n/d) <= hi``, for ``n >= 0``, ``d >= 1`` and
    ``precision >= 0``."""
    halvings = (n // d).bit_length()  # label: halvings
    y = Fraction(n, d << halvings)  # y = x / 2^halvings, 0 <= y < 1  # label: reduced
    work = precision + halvings + GUARD_BITS  # label: work
    # alternating series: |exp(-y) - partial sum up to term j| <= the next term
    total, term, index = Fraction(1), Fraction(1), 0
    threshold = Fraction(1, 1 << (work + 2))
    while True:
        index += 1
        term = term * y / index  # label: next-term
        if term <= threshold:
            break
        total += -term if index & 1 else term  # label: partial-sum
    lo = math.floor((total - term) * (1 << work))  # label: series-lo
    hi = math.ceil((total + term) * (1 << work))  # label: series-hi
    lo = max(lo, 0)
    for _ in range(halvings):  # exp(-2y) = exp(-y)^2, rounded outward
        lo = (lo * lo) >> work  # label: square-lo
        hi = -((-(hi * hi)) >> work)  # label: square-hi
    shift = work - precision
    return lo >> shift, -((-hi) >> shift)  # label: rescale


# proof: end exp-neg-enclosure


# proof: begin exp-neg-digits
def exp_neg_digits(n: int, d: int, m: int) -> int:
    """``floor(2^m exp(-n/d))`` for integers ``n, d >= 1``, ``m >= 0``."""
    if n >= d * (m + 1):  # exp(-n/d) <= e^-(m+1) < 2^-(m+1): the digits are all 0  # label: tiny
        return 0
    extra = 64
    while True:
        lo, hi = exp_neg_enclosure(n, d, m + extra)  # label: enclose
        if lo >> extra == hi >> extra:  # both ends in one unit interval  # label: decided
            return lo >> extra
        extra *= 2  # label: refine


# proof: end exp-neg-digits
