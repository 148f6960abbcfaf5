"""Binary digits of ``exp(-x)`` for rational ``x > 0``, computed exactly with integers.

Guarantee (exp_digits.tex): ``exp_neg_enclosure(n, d, p)`` returns integers
``lo <= 2^p exp(-n/d) <= hi``; ``exp_neg_digits(n, d, m)`` returns
``floor(2^m exp(-n/d))`` exactly (for ``n, d >= 1``).  No floating point is used:
a Taylor series in exact integer fractions, then integer squarings rounded outward.
"""

from __future__ import annotations

__all__ = ["exp_neg_enclosure", "exp_neg_digits"]

# proof: begin exp-neg-enclosure
#: Extra bits carried through the squarings.
GUARD_BITS = 16  # label: guard-bits


def exp_neg_enclosure(n: int, d: int, precision: int) -> tuple[int, int]:
    """Integers ``lo <= 2^precision * exp(-n/d) <= hi``, for ``n >= 0``, ``d >= 1`` and
    ``precision >= 0``."""
    halvings = (n // d).bit_length()  # label: halvings
    scale = d << halvings  # y = n / scale = x / 2^halvings, 0 <= y < 1  # label: reduced
    work = precision + halvings + GUARD_BITS  # label: work
    # alternating series: |exp(-y) - partial sum up to term j| <= the next term.  The term
    # a_j = t / q and the partial sum S = s / q share the denominator q = scale^j j!
    # (integers, never reduced: no gcd is computed)
    s = t = q = 1
    index = 0
    while True:
        index += 1
        step = scale * index
        t, q, s = t * n, q * step, s * step  # label: next-term
        if t << (work + 2) <= q:  # a_j <= 2^-(work + 2)  # label: small-term
            break
        s += -t if index & 1 else t  # label: partial-sum
    lo = ((s - t) << work) // q  # label: series-lo
    hi = -((-((s + t) << work)) // q)  # label: series-hi
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
