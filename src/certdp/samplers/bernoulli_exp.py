"""Exact Bernoulli trials with success probability ``exp(-x)`` for rational ``x >= 0``.

Guarantee (bernoulli_exp.tex): ``bernoulli_exp_ratio(source, n, d)`` returns
``True`` with probability exactly ``exp(-n / d)`` (integers ``n >= 0``,
``d >= 1``).  Algorithm of Canonne, Kamath and Steinke (2020), after von Neumann.
"""

from __future__ import annotations

from certdp.core.errors import FailedFunctionError, shown

from ._arguments import exact_inputs, exact_rational
from .bernoulli import bernoulli_ratio
from .uniform import EntropySource, entropy_source

__all__ = ["bernoulli_exp_ratio", "sample_bernoulli_exp"]


# proof: begin bernoulli-exp
def bernoulli_exp_at_most_one(source: EntropySource, n: int, d: int) -> bool:
    """``True`` with probability ``exp(-n / d)``, for ``0 <= n <= d``."""
    trials = 1
    while bernoulli_ratio(source, n, d * trials):  # label: factorial-trial
        trials += 1
    return trials & 1 == 1  # label: odd


def bernoulli_exp_ratio(source: EntropySource, n: int, d: int) -> bool:
    """``True`` with probability ``exp(-n / d)``, for ``n >= 0``, ``d >= 1``."""
    whole, n = divmod(n, d)  # label: split
    for _ in range(whole):
        if not bernoulli_exp_at_most_one(source, 1, 1):  # label: unit-factor
            return False
    return bernoulli_exp_at_most_one(source, n, d)  # label: fractional-factor


# proof: end bernoulli-exp


@exact_inputs
def sample_bernoulli_exp(x) -> bool:
    """``True`` with probability exactly ``exp(-x)``, for a rational ``x >= 0``."""
    x = exact_rational(x, "x")
    if x < 0:
        raise FailedFunctionError(f"must be non-negative, got {shown(x)}", parameter="x")
    return bernoulli_exp_ratio(entropy_source(), x.numerator, x.denominator)
