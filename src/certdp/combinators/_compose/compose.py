"""Adding privacy losses, per measure: the arithmetic every composition in certdp shares.

Guarantee (compose.tex): for a measure certdp composes (pure DP, zCDP, and their
``Approximate`` forms) and a list of losses under it, :func:`compose_losses` returns a loss at
least the exact coordinate-wise sum (each coordinate's exact sum rounded up once into f64;
``+inf`` when a term is ``+inf`` or the sum passes the largest f64), and refuses anything that is
not a loss under the measure with a typed error.
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.core.conversion import exact_scalar, is_foreign_number
from certdp.core.errors import ArithmeticOverflowError, FailedMapError
from certdp.core.exact_type import is_exact_fraction, type_is
from certdp.core.measures import ApproximateDivergence, MaxDivergence, ZeroConcentratedDivergence
from certdp.numeric import inf_cast

__all__ = [
    "COMPOSABLE",
    "add_losses",
    "compose_losses",
    "composable",
    "fresh_measure",
    "sequential_only",
]


# proof: begin compose
#: The measures whose losses add: the distance is one number.
SCALAR = (MaxDivergence, ZeroConcentratedDivergence)

#: Names of the measures :func:`compose_losses` accepts, for messages.
COMPOSABLE = (
    "MaxDivergence, ZeroConcentratedDivergence, Approximate(MaxDivergence) or "
    "Approximate(ZeroConcentratedDivergence)"
)


def composable(measure) -> bool:
    """Does :func:`compose_losses` add losses under ``measure``?"""
    if type_is(measure, *SCALAR):  # label: scalar-measure
        return True
    return type(measure) is ApproximateDivergence and type_is(
        measure.measure, *SCALAR
    )  # label: pair-measure


def fresh_measure(measure):
    """A new object of the composable ``measure``'s class (its inner measure's too), so no
    attribute set on ``measure``'s object reaches the composed measurement."""
    if type_is(measure, *SCALAR):  # label: fresh-scalar
        return type(measure)()
    return ApproximateDivergence(type(measure.measure)())  # label: fresh-pair


def sequential_only(measure) -> bool:
    """Must the queryables released under ``measure`` stop answering once a later part has
    started?  True for ``Approximate(ZeroConcentratedDivergence)``, whose composition is proven
    only for sequential interaction (OpenDP 0.16 draws the same line); the other composable
    measures compose concurrently."""
    return type(measure) is ApproximateDivergence and (  # label: sequential-measure
        type(measure.measure) is ZeroConcentratedDivergence
    )


def _term(value, error, parameter):
    """``value`` as an exact non-negative number or float ``+inf``, else ``error``."""
    if is_foreign_number(value):  # label: term-foreign
        value = exact_scalar(value, parameter, error)  # a NumPy scalar, as OpenDP accepts
    exact = type_is(value, int, float) or is_exact_fraction(value)
    if not exact or value != value or value < 0:  # label: term
        raise error(
            f"a privacy loss must be a non-negative int, float or Fraction, got {value!r}",
            parameter=parameter,
        )
    return value


def add_losses(losses, error=FailedMapError, parameter="d_out") -> float:
    """The exact sum of the non-negative ``losses``, rounded up once into f64 (``+inf`` if a
    loss is ``+inf`` or the sum exceeds the largest f64)."""
    terms = [_term(loss, error, parameter) for loss in losses]  # label: terms
    if any(type(term) is float and math.isinf(term) for term in terms):  # label: infinite
        return math.inf
    total = sum((Fraction(term) for term in terms), Fraction(0))  # exact  # label: sum
    try:
        return inf_cast(total, "f64")  # label: round-up
    except ArithmeticOverflowError:
        return math.inf  # label: overflow


def compose_losses(measure, losses, error=FailedMapError, parameter="d_out"):
    """The composed loss of ``losses`` under ``measure``: the sum (pure DP, zCDP) or the pair
    of coordinate sums (their ``Approximate`` forms), each rounded up once."""
    losses = list(losses)
    if type_is(measure, *SCALAR):  # label: scalar
        return add_losses(losses, error, parameter)
    if not composable(measure):  # label: unsupported
        raise error(f"the measure must be {COMPOSABLE}, got {measure!r}", parameter=parameter)
    for loss in losses:
        if type(loss) is not tuple or len(loss) != 2:  # label: pair
            raise error(
                f"a privacy loss under {measure!r} must be a pair (d, delta), got {loss!r}",
                parameter=parameter,
            )
    first = add_losses([loss[0] for loss in losses], error, parameter)  # label: first
    delta = add_losses([loss[1] for loss in losses], error, parameter)  # label: delta
    return (first, delta)


# proof: end compose
