"""Split a privacy budget into per-query losses whose composition never exceeds it.

Guarantee (context.tex, Lemma "split"): ``split_budget(d_out, weights)`` returns one loss per
weight, each coordinate the largest f64 at most ``d_out * w_i / sum(w)`` (computed exactly and
rounded down once), so the exact sum of the shares is at most ``d_out`` and so is that sum
rounded up to f64 (``d_out`` is an f64): the sequential compositor's map, which rounds the exact
sum up once, is within the budget.  Bad budgets or weights raise a typed error naming them.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

from certdp.core.conversion import exact_scalar, is_foreign_number
from certdp.core.errors import shown
from certdp.core.exact_type import type_is
from certdp.numeric import neg_inf_cast

from .errors import ContextArgumentError

__all__ = ["split_budget", "even_weights", "MAX_PARTS"]

#: At most this many shares (a list of queries longer than any session would hold).
# proof: begin split-module
MAX_PARTS = 1 << 20


# proof: begin split-arguments
def _coordinate(value, name: str) -> Fraction:
    """An exact budget coordinate: a finite non-negative number that is an f64 value (a
    weight may also be any ``Fraction``); a NumPy scalar counts as the Python number of the
    same value."""
    if is_foreign_number(value):  # label: split-foreign
        value = exact_scalar(value, name, ContextArgumentError)
    kind = type(value)
    if kind is Fraction and name == "split_by_weights":  # label: split-rational-weight
        if not 0 <= value <= sys.float_info.max:  # compared exactly
            raise ContextArgumentError(
                f"must be a finite non-negative number, got {shown(value)}", parameter=name
            )
        return value
    finite = kind is int and value <= sys.float_info.max or kind is float and math.isfinite(value)
    if not type_is(value, int, float) or not (value >= 0 and finite):  # label: split-finite
        raise ContextArgumentError(
            f"must be a finite non-negative number, got {shown(value)}", parameter=name
        )
    if kind is int and float(value) != value:  # label: split-f64-budget
        raise ContextArgumentError(
            f"must be an f64 value (a float, or an integer a float holds), got {shown(value)}",
            parameter=name,
        )
    return Fraction(value)


def _weights(weights) -> list[Fraction]:
    if not isinstance(weights, (list, tuple)) or not 0 < len(weights) <= MAX_PARTS:
        raise ContextArgumentError(
            f"must be a non-empty list of at most {MAX_PARTS} weights", parameter="split_by_weights"
        )
    exact = [_coordinate(weight, "split_by_weights") for weight in weights]
    if sum(exact) == 0:  # label: split-positive
        raise ContextArgumentError(
            "at least one weight must be positive", parameter="split_by_weights"
        )
    return exact


def even_weights(split_evenly_over) -> list[int]:
    """``split_evenly_over`` equal weights (a positive integer of at most MAX_PARTS)."""
    if is_foreign_number(split_evenly_over):  # a NumPy integer counts as the int it holds
        split_evenly_over = exact_scalar(
            split_evenly_over, "split_evenly_over", ContextArgumentError
        )
    if type(split_evenly_over) is not int or not 0 < split_evenly_over <= MAX_PARTS:
        raise ContextArgumentError(
            f"must be an integer from 1 to {MAX_PARTS}, got {shown(split_evenly_over)}",
            parameter="split_evenly_over",
        )
    return [1] * split_evenly_over


# proof: end split-arguments


# proof: begin split
def split_budget(d_out, weights) -> list:
    """Shares of ``d_out`` (a number, or a pair for approximate measures) proportional to
    ``weights``, each coordinate rounded down: their exact sum is at most ``d_out``."""
    exact_weights = _weights(weights)
    total = sum(exact_weights)  # label: split-total
    pair = isinstance(d_out, tuple)
    if pair and len(d_out) != 2:
        raise ContextArgumentError("must be a number or a pair", parameter="privacy_loss")
    budget = [_coordinate(c, "privacy_loss") for c in (d_out if pair else (d_out,))]
    shares = []
    for weight in exact_weights:
        share = tuple(neg_inf_cast(c * weight / total) for c in budget)  # label: split-round-down
        shares.append(share if pair else share[0])
    return shares


# proof: end split
# proof: end split-module
