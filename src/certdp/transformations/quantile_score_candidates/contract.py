"""Contract of ``make_quantile_score_candidates``: the theorem of
make_quantile_score_candidates.tex, executable.

Preconditions (ids as in the proof), and the stability bound ``floor(d_in / s) * w``: ``s = 2``,
``w = den`` with a known size; ``s = 1``, ``w = max(num, den - num)`` without.
"""

import math

import sympy
from hypothesis import strategies as st

from certdp.contracts.common import (
    INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
    dataset_metrics,
    is_vector_of_numeric_atoms,
)
from certdp.contracts.contract import D_IN, Precondition, TransformationContract
from certdp.contracts.neighbours import members
from certdp.core.domains import atom_domain, carrier_constant, vector_domain
from certdp.core.errors import ArithmeticOverflowError
from certdp.core.exact_type import type_is

from .make_quantile_score_candidates import (
    U64_MAX,
    make_quantile_score_candidates,
    score_constants,
)

STEP = sympy.Symbol("s", positive=True, integer=True)
WEIGHT = sympy.Symbol("w", nonnegative=True, integer=True)


def _domain_ok(a) -> bool:
    if not is_vector_of_numeric_atoms(a):
        return False
    element, size = a.input_domain.element_domain, a.input_domain.size
    if element.T.is_float and element.nan:
        return False
    return size is None or 1 <= size <= U64_MAX


def _candidates_ok(a) -> bool:
    if not type_is(a.candidates, list, tuple) or not a.candidates:
        return False
    T = a.input_domain.element_domain.T
    values = [carrier_constant(c, T) for c in a.candidates]
    if any(v is None or (T.is_float and math.isnan(v)) for v in values):
        return False
    return all(values[i - 1] < values[i] for i in range(1, len(values)))


def _alpha_ok(a) -> bool:
    alpha = a.alpha
    return type(alpha) is float and 0.0 < alpha < 1.0


def _parameters(a, built) -> dict:
    alpha = float(a.alpha)
    num, den, _ = score_constants(a.input_domain.size, alpha)
    if a.input_domain.size is None:
        return {STEP: 1, WEIGHT: max(num, den - num)}
    return {STEP: 2, WEIGHT: den}


def largest_d_in(built, most: int = 6) -> int:
    """The largest ``d_in <= most`` whose map value is a u64 (the map refuses larger ones with
    ArithmeticOverflowError, as the proof states: alpha = 1e-300 gives ``den = 2**64 - 1``,
    so a known size allows ``d_in <= 3`` only)."""
    d_in = most
    while d_in > 0:
        try:
            built.map(d_in)
            return d_in
        except ArithmeticOverflowError:
            d_in -= 1
    return 0


ALPHAS = [0.5, 0.25, 0.3, 1 / 3, 0.99999, 1e-300, 0.75, 5e-324, 1 - 2**-53]


@st.composite
def arguments(draw):
    T = draw(st.sampled_from(["i32", "u8", "u64", "i128", "f32", "f64"]))
    element = atom_domain(T=T, nan=False) if T[0] == "f" else atom_domain(T=T)
    values = draw(st.lists(members(element), min_size=1, max_size=4))
    candidates = sorted(set(v for v in values if v == v))
    if T[0] == "f":  # -0.0 and 0.0 are one candidate
        candidates = sorted({0.0 if v == 0 else v for v in candidates})
    size = draw(st.one_of(st.none(), st.integers(1, 6)))
    return {
        "input_domain": vector_domain(element, size=size),
        "input_metric": draw(dataset_metrics()),
        "candidates": candidates,
        "alpha": draw(st.sampled_from(ALPHAS)),
    }


CONTRACT = TransformationContract(
    constructor=make_quantile_score_candidates,
    preconditions=[
        Precondition(
            "input-domain-vector-of-non-nan-numbers",
            _domain_ok,
            "input_domain must be vector_domain(atom_domain(T=<numeric type>, nan=False)) "
            "of size None or in [1, 2**64 - 1]",
            parameter="input_domain",
        ),
        INPUT_METRIC_SYMMETRIC_OR_INSERT_DELETE,
        Precondition(
            "candidates-strictly-increasing",
            _candidates_ok,
            "candidates must be a non-empty list of non-NaN values of the type, strictly "
            "increasing",
            parameter="candidates",
        ),
        Precondition(
            "alpha-in-unit-interval",
            _alpha_ok,
            "alpha must be a float in the open interval (0, 1)",
            parameter="alpha",
        ),
    ],
    bound=sympy.floor(D_IN / STEP) * WEIGHT,
    parameters=_parameters,
    arguments=arguments,
    d_in=lambda built: st.integers(0, largest_d_in(built)),
)

SYMBOL_MEANINGS = {
    "s": "2 when the size of input_domain is known (d_in // 2 records change), 1 otherwise",
    "w": "with a known size, den, the denominator of alpha's fraction num / den; without one, "
    "max(num, den - num) (num / den is alpha, or trunc(alpha * 10000) / 10000 when alpha's "
    "denominator is not below 10000)",
}
