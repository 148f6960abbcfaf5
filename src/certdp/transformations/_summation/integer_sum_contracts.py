"""The integer sum contracts: preconditions, the two bounds of the theorems, hypothesis
strategies of valid arguments and representable distances, and :func:`integer_sum_contract`,
which builds a constructor's whole contract from its shape and its preconditions.

Precondition ids are the ones the proofs state with ``\\precondition``.
"""

from __future__ import annotations

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.types import carrier

from .integer_summation import (
    bound_magnitude,
    bound_range,
    can_int_sum_overflow,
    checked_size,
    integer_bounds,
    integer_type,
    signs_agree,
)

__all__ = [
    "LOWER",
    "UPPER",
    "SIZED_BOUND",
    "UNSIZED_BOUND",
    "TESTED_TYPES",
    "bound_parameters",
    "preconditions",
    "integer_sum_arguments",
    "representable_distances",
    "integer_sum_contract",
]

LOWER = sympy.Symbol("L", integer=True)
UPPER = sympy.Symbol("U", integer=True)
#: Theorem of the sized sums: floor(d_in / 2) * (U - L).
SIZED_BOUND = sympy.floor(D_IN / 2) * (UPPER - LOWER)
#: Theorem of the unsized sums: d_in * max(|L|, U).
UNSIZED_BOUND = D_IN * sympy.Max(sympy.Abs(LOWER), UPPER)

TESTED_TYPES = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")


def bound_parameters(arguments, built) -> dict:
    """``L`` and ``U`` of the built transformation's input domain."""
    lower, upper = built.input_domain.element_domain.bounds
    return {LOWER: lower, UPPER: upper}


def _type(a):
    return integer_type(a.T, a.bounds)


def _bounds(a):
    return integer_bounds(a.bounds, _type(a))


_PRECONDITIONS = {
    "T-integer": Precondition(
        "T-integer",
        lambda a: _type(a).is_integer,
        "T (inferred from bounds[0] when None) must be an integer carrier type",
        parameter="T",
    ),
    "bounds-of-T": Precondition(
        "bounds-of-T",
        lambda a: len(_bounds(a)) == 2,
        "bounds must be a pair of values of T",
        parameter="bounds",
    ),
    "bounds-ordered": Precondition(
        "bounds-ordered",
        lambda a: _bounds(a)[0] <= _bounds(a)[1],
        "the lower bound must not exceed the upper bound",
        parameter="bounds",
    ),
    "size-non-negative": Precondition(
        "size-non-negative",
        lambda a: checked_size(a.size) >= 0,
        "size must be a non-negative integer",
        parameter="size",
    ),
    "sum-cannot-overflow": Precondition(
        "sum-cannot-overflow",
        lambda a: not can_int_sum_overflow(checked_size(a.size), _bounds(a), _type(a)),
        "size and max(|lower|, upper) * size must be values of T",
        parameter="bounds",
    ),
    "bounds-share-sign": Precondition(
        "bounds-share-sign",
        lambda a: signs_agree(_bounds(a)),
        "the bounds must share a sign (zero agrees with both)",
        parameter="bounds",
    ),
    "range-representable": Precondition(
        "range-representable",
        lambda a: bound_range(_bounds(a), _type(a)) is not None,
        "upper - lower must be a value of T",
        parameter="bounds",
    ),
    "magnitude-representable": Precondition(
        "magnitude-representable",
        lambda a: bound_magnitude(_bounds(a), _type(a)) is not None,
        "|lower| must be a value of T",
        parameter="bounds",
    ),
}


def preconditions(*ids: str) -> list[Precondition]:
    """The shared preconditions with these ids, in this order."""
    return [_PRECONDITIONS[id] for id in ids]


def _interesting_values(T) -> list[int]:
    candidates = {T.min, T.min + 1, T.max, T.max - 1, T.max // 2, -(T.max // 2), 0, 1, -1, 10, -10}
    return sorted(value for value in candidates if T.min <= value <= T.max)


def integer_sum_arguments(*, sized: bool, conditions: list[Precondition]) -> st.SearchStrategy:
    """Keyword arguments of integer sum constructors that satisfy ``conditions``, biased
    towards bounds at the ends of ``T``'s range (where saturation happens)."""

    @st.composite
    def draw_arguments(draw):
        T = carrier(draw(st.sampled_from(TESTED_TYPES)))
        value = st.one_of(
            st.sampled_from(_interesting_values(T)),
            st.integers(max(T.min, -30), min(T.max, 30)),
            st.integers(T.min, T.max),
        )
        lower, upper = sorted((draw(value), draw(value)))
        use_default = T.name == "i32" and draw(st.booleans())
        kwargs = {"bounds": (lower, upper), "T": None if use_default else T.name}
        if sized:
            kwargs["size"] = draw(st.integers(0, 6))
        return kwargs

    def valid(kwargs) -> bool:
        from types import SimpleNamespace

        namespace = SimpleNamespace(**{"size": None, **kwargs})
        try:
            return all(condition.holds(namespace) for condition in conditions)
        except Exception:
            return False

    return draw_arguments().filter(valid)


def representable_distances(*, sized: bool):
    """For a built sum, the ``d_in`` whose map value is a value of ``T``: from 0 up to the
    largest such (``2 * (T.max // (U - L)) + 1`` sized, ``T.max // max(|L|, U)`` unsized,
    ``T.max`` in place of the quotient when the constant is 0), at most
    :data:`~certdp.contracts.neighbours.DATASET_DISTANCE_LIMIT`, with the large values
    where float arithmetic stops being exact."""
    from certdp.contracts.neighbours import DATASET_DISTANCE_LIMIT, distances_up_to

    def strategy(built):
        T = built.output_domain.T
        lower, upper = built.input_domain.element_domain.bounds
        constant = upper - lower if sized else max(abs(lower), upper)
        # the map casts d_in // 2 (sized) or d_in (unsized) into T before multiplying
        multipliers = T.max if constant == 0 else T.max // constant
        largest = 2 * multipliers + 1 if sized else multipliers
        return distances_up_to(min(largest, DATASET_DISTANCE_LIMIT))

    return strategy


def integer_sum_contract(constructor, *, sized: bool, conditions: str):
    """The contract of an integer sum constructor: its preconditions (``conditions``: their
    ids, separated by spaces, in the order the code checks them) and the theorem of its shape,
    ``floor(d_in / 2) * (U - L)`` for sized sums and ``d_in * max(|L|, U)`` otherwise."""
    checks = preconditions(*conditions.split())
    return TransformationContract(
        constructor=constructor,
        preconditions=checks,
        bound=SIZED_BOUND if sized else UNSIZED_BOUND,
        parameters=bound_parameters,
        arguments=lambda: integer_sum_arguments(sized=sized, conditions=checks),
        d_in=representable_distances(sized=sized),
    )
