"""Exact Bernoulli trials with a rational success probability.

Guarantee (bernoulli.tex): ``bernoulli_ratio(source, n, d)`` returns ``True``
with probability exactly ``n / d`` (for integers ``0 <= n <= d``, ``d >= 1``),
using two random bits on average.
"""

from __future__ import annotations

from certdp.core.errors import FailedFunctionError

from ._arguments import exact_inputs, exact_rational
from .uniform import EntropySource, entropy_source

__all__ = ["bernoulli_ratio", "sample_bernoulli_rational"]


# proof: begin bernoulli-ratio
def bernoulli_ratio(source: EntropySource, n: int, d: int) -> bool:
    """``True`` with probability ``n / d``: is a uniform real ``V`` in [0, 1) below ``n / d``?

    The binary digits of ``n / d`` are produced by long division and compared with
    fresh random digits of ``V``; the first difference decides.
    """
    if n <= 0:  # label: zero
        return False
    if n >= d:  # label: one
        return True
    remainder = n  # label: remainder
    bit = source.bit
    while True:
        remainder <<= 1  # label: double
        if remainder >= d:  # the next digit of n / d is 1
            remainder -= d  # label: digit-one
            if not bit():  # V's digit is 0 < 1: V < n / d
                return True  # label: below
        elif bit():  # the next digit of n / d is 0 and V's digit is 1: V > n / d
            return False  # label: above


# proof: end bernoulli-ratio


@exact_inputs
def sample_bernoulli_rational(p) -> bool:
    """``True`` with probability exactly ``p``, a rational number in ``[0, 1]``."""
    p = exact_rational(p, "p")
    if not 0 <= p <= 1:
        raise FailedFunctionError(f"must lie in [0, 1], got {p}", parameter="p")
    return bernoulli_ratio(entropy_source(), p.numerator, p.denominator)
