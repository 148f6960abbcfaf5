"""What the contracts of the odometer and the filter share: the space they run on, queries
whose maps return chosen losses, and the exact totals their theorems speak of.

A *stub* query releases a constant (so it is a valid measurement for every loss its map
states) and its map returns one chosen loss at every ``d_in``: the accounting is then checked on
losses across the whole range (zero, subnormal, huge, ``+inf``), independently of any mechanism.
"""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import strategies as st

from certdp.core.domains import atom_domain
from certdp.core.measures import approximate, max_divergence, zero_concentrated_divergence
from certdp.core.metrics import absolute_distance
from certdp.core.transformation import Measurement
from certdp.numeric import inf_cast

__all__ = [
    "SPACE",
    "MEASURES",
    "stub",
    "losses_of",
    "exact_total",
    "rounded_total",
    "within",
    "is_pair",
]

#: The space every contract query runs on.
SPACE = (atom_domain(T="f64", nan=False), absolute_distance(T="f64"))

MEASURES = (
    max_divergence(),
    zero_concentrated_divergence(),
    approximate(max_divergence()),
    approximate(zero_concentrated_divergence()),
)

_EDGES = [0.0, 5e-324, 1e-300, 0.1, 1 / 3, 0.5, 1.0, 2.0, 1e300, 1.7976931348623157e308]


def is_pair(measure) -> bool:
    return hasattr(measure, "measure")


def stub(measure, loss) -> Measurement:
    """A valid measurement on :data:`SPACE` releasing ``0.0``, whose map states ``loss``."""
    return Measurement(SPACE[0], lambda x: 0.0, SPACE[1], measure, lambda d_in: loss)


def _number(with_infinity: bool) -> st.SearchStrategy:
    numbers = st.one_of(
        st.sampled_from(_EDGES),
        st.floats(min_value=0.0, max_value=10.0, allow_nan=False),
        st.fractions(min_value=0, max_value=5, max_denominator=7),
        st.integers(min_value=0, max_value=3),
    )
    return st.one_of(numbers, st.just(math.inf)) if with_infinity else numbers


def losses_of(measure, with_infinity: bool = True) -> st.SearchStrategy:
    """Losses of ``measure``: numbers, or pairs of numbers for an approximate measure."""
    number = _number(with_infinity)
    return st.tuples(number, number) if is_pair(measure) else number


def _exact(values):
    if any(value == math.inf for value in values):
        return math.inf
    return sum((Fraction(value) for value in values), Fraction(0))


def exact_total(measure, losses):
    """The exact sum of ``losses`` (a ``Fraction`` or ``inf``), per coordinate for pairs."""
    if is_pair(measure):
        return (_exact([d for d, _ in losses]), _exact([delta for _, delta in losses]))
    return _exact(list(losses))


def _up(value) -> float:
    if value == math.inf:
        return math.inf
    largest = Fraction(1.7976931348623157e308)
    return math.inf if value > largest else inf_cast(value, "f64")


def rounded_total(measure, losses):
    """:func:`exact_total` rounded up to f64 (``inf`` past the largest finite value): the value
    the theorems state, computed here apart from the code under test."""
    total = exact_total(measure, losses)
    return tuple(_up(v) for v in total) if is_pair(measure) else _up(total)


def within(value, bound) -> bool:
    """``value <= bound``, per coordinate for pairs (exact comparisons)."""
    if isinstance(bound, tuple):
        return all(within(v, b) for v, b in zip(value, bound))
    return (math.inf if value == math.inf else Fraction(value)) <= (
        math.inf if bound == math.inf else Fraction(bound)
    )
