"""The float sum contracts: preconditions, the closed-form bounds of the theorems, hypothesis
strategies of valid arguments and representable distances, and :func:`float_sum_contract`,
which builds a constructor's whole contract from its shape.

Precondition ids are the ones the proofs state with ``\\precondition``.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.core.errors import ArithmeticOverflowError
from certdp.numeric import is_representable

from .float_summation import ALGORITHMS, _float_type_of, parse_summation

__all__ = [
    "LOWER",
    "UPPER",
    "SIZE",
    "MANTISSA_BITS",
    "ALGORITHM",
    "ERROR",
    "RELAXATION",
    "SIZED_BOUND",
    "UNSIZED_BOUND",
    "STRATEGIES",
    "bound_parameters",
    "preconditions",
    "float_sum_arguments",
    "representable_distances",
    "float_sum_contract",
]

LOWER, UPPER = sympy.Symbol("L", real=True), sympy.Symbol("U", real=True)
SIZE = sympy.Symbol("n", integer=True, nonnegative=True)
MANTISSA_BITS = sympy.Symbol("k", integer=True, positive=True)
#: 0 for Sequential, 1 for Pairwise, 2 for Exact.
ALGORITHM = sympy.Symbol("algorithm", integer=True, nonnegative=True)

_MAGNITUDE = sympy.Max(sympy.Abs(LOWER), UPPER)
_LOG2_N = sympy.log(SIZE, 2)
#: The per-sum rounding error bounds of float_summation.tex (OpenDP's forms for Sequential and
#: Pairwise, our own for Exact).
ERROR = sympy.Piecewise(
    (SIZE**2 * _MAGNITUDE / 2**MANTISSA_BITS, sympy.Eq(ALGORITHM, 0)),
    (
        (_LOG2_N / 2**MANTISSA_BITS) / (1 - _LOG2_N / 2**MANTISSA_BITS) * SIZE * _MAGNITUDE,
        sympy.Eq(ALGORITHM, 1),
    ),
    (SIZE * _MAGNITUDE / 2 ** (MANTISSA_BITS + 1), True),
)
RELAXATION = 2 * ERROR
#: Theorem of the sized sums: floor(d_in / 2) * (U - L) + 2 * error.
SIZED_BOUND = sympy.floor(D_IN / 2) * (UPPER - LOWER) + RELAXATION
#: Theorem of the sums of unknown size: d_in * max(U - L, |L|, U) + 2 * error.
UNSIZED_BOUND = D_IN * sympy.Max(UPPER - LOWER, sympy.Abs(LOWER), UPPER) + RELAXATION

STRATEGIES = tuple(f"{a}<{T}>" for a in ALGORITHMS for T in ("f32", "f64"))


def bound_parameters(arguments, built) -> dict:
    """L, U, n, k and the algorithm of a built float sum."""
    lower, upper = built.input_domain.element_domain.bounds
    summation = parse_summation(arguments.S, arguments.bounds)
    size = getattr(arguments, "size", None)
    if size is None:
        size = arguments.size_limit
    return {
        LOWER: lower,
        UPPER: upper,
        SIZE: int(size),
        MANTISSA_BITS: summation.mantissa_bits,
        ALGORITHM: ALGORITHMS.index(summation.algorithm),
    }


def _bounds_of_T(a) -> bool:
    summation = parse_summation(a.S, a.bounds)
    return (
        isinstance(a.bounds, (tuple, list))
        and len(a.bounds) == 2
        and all(
            _float_type_of(value) is not None
            and math.isfinite(value)
            and is_representable(float(value), summation.T)
            for value in a.bounds
        )
    )


def _non_negative_integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


_PRECONDITIONS = {
    "strategy-known": Precondition(
        "strategy-known",
        lambda a: parse_summation(a.S, a.bounds) is not None,
        "S must name Sequential, Pairwise or Exact over f32 or f64 (or <T>, with float bounds)",
        parameter="S",
    ),
    "bounds-finite-of-T": Precondition(
        "bounds-finite-of-T",
        _bounds_of_T,
        "bounds must be two finite floats, each a value of T",
        parameter="bounds",
    ),
    "bounds-ordered": Precondition(
        "bounds-ordered",
        lambda a: a.bounds[0] <= a.bounds[1],
        "the lower bound must not exceed the upper bound",
        parameter="bounds",
    ),
    "size-non-negative": Precondition(
        "size-non-negative",
        lambda a: _non_negative_integer(a.size),
        "size must be a non-negative integer",
        parameter="size",
    ),
    "size-limit-non-negative": Precondition(
        "size-limit-non-negative",
        lambda a: _non_negative_integer(a.size_limit),
        "size_limit must be a non-negative integer",
        parameter="size_limit",
    ),
}


def preconditions(*ids: str) -> list[Precondition]:
    """The shared preconditions with these ids, in this order."""
    return [_PRECONDITIONS[id] for id in ids]


def _interesting_values(T: str) -> list[float]:
    largest = 3.4028234663852886e38 if T == "f32" else 1.7976931348623157e308
    values = [0.0, 1.0, 10.0, 0.5, 2.5, 2.0**-60, 2.0**60, 2.0**24 + 2.0, 2.0**53, largest / 4]
    values += [-value for value in values]
    return [value for value in values if is_representable(value, T)]


def float_sum_arguments(*, size_name: str, sizes: st.SearchStrategy) -> st.SearchStrategy:
    """Keyword arguments of a float sum constructor: every strategy, bounds biased towards
    magnitudes that round (2^53, 2^24 + 2, 2^60) and that saturate (MAX / 4)."""

    @st.composite
    def draw_arguments(draw):
        S = draw(st.sampled_from(STRATEGIES + ("Pairwise<T>",)))
        T = "f64" if S.endswith("<T>") else S[-4:-1]
        width = 64 if T == "f64" else 32
        value = st.one_of(
            st.sampled_from(_interesting_values(T)),
            st.floats(-100.0, 100.0, width=width),
        ).map(lambda bound: bound + 0.0)  # no -0.0 bound: [0.0, -0.0] would be empty
        lower, upper = sorted((draw(value), draw(value)))
        return {size_name: draw(sizes), "bounds": (lower, upper), "S": S}

    return draw_arguments()


def representable_distances(built) -> st.SearchStrategy:
    """The ``d_in`` up to the largest whose map does not overflow (bisected, up to
    :data:`~certdp.contracts.neighbours.DATASET_DISTANCE_LIMIT`), with the large values where
    float arithmetic stops being exact."""
    from certdp.contracts.neighbours import distances_for

    return distances_for(built)


def namespace(**kwargs) -> SimpleNamespace:
    """Arguments as the contract binds them (for tests of the preconditions)."""
    return SimpleNamespace(**kwargs)


def float_sum_contract(constructor, *, sized: bool, sizes: st.SearchStrategy):
    """The contract of a float sum constructor: the four preconditions (the last on ``size``
    for sized sums, on ``size_limit`` otherwise), the theorem of its shape, arguments whose
    size is drawn from ``sizes``, and overflow refusals (and refusals where no map is proven)
    as valid outcomes."""
    size_name = "size" if sized else "size_limit"
    return TransformationContract(
        constructor=constructor,
        preconditions=preconditions(
            "strategy-known",
            "bounds-finite-of-T",
            "bounds-ordered",
            "size-non-negative" if sized else "size-limit-non-negative",
        ),
        bound=SIZED_BOUND if sized else UNSIZED_BOUND,
        parameters=bound_parameters,
        arguments=lambda: float_sum_arguments(size_name=size_name, sizes=sizes),
        d_in=representable_distances,
        refusals=(ArithmeticOverflowError,),
    )
