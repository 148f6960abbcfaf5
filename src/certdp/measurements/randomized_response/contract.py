"""Contract of ``make_randomized_response``: the theorem of make_randomized_response.tex,
executable.  The pair's divergence is computed from the exact output laws: on a category
``prob`` on it and ``(1 - prob) / (k - 1)`` on each other one; on any other value ``1 / k`` on
each category."""

from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, MeasurementContract, Precondition, as_rational
from certdp.contracts.neighbours import SMALL_VALUES
from certdp.core.exact_type import type_is
from certdp.measurements._randomized_response.contract_support import max_divergence

from .make_randomized_response import make_randomized_response

PROB = sympy.Symbol("prob", positive=True)
K = sympy.Symbol("k", positive=True, integer=True)

BOUND = sympy.Piecewise(
    (0, D_IN < 1),
    (sympy.Abs(sympy.log(PROB * (K - 1) / (1 - PROB))), True),
)


def _law(categories, prob, x):
    k, p = len(categories), Fraction(prob)
    if x not in categories:
        return {c: Fraction(1, k) for c in categories}
    return {c: p if c == x else (1 - p) / (k - 1) for c in categories}


def _divergence(built, kwargs, x, x_prime):
    categories, prob = kwargs["categories"], kwargs["prob"]
    return max_divergence(_law(categories, prob, x), _law(categories, prob, x_prime))


def _with_prob(categories):
    k = len(categories)
    probs = st.one_of(
        st.sampled_from([1 / k, 0.75 if k <= 4 else 0.5, 0.99, 1 - 2**-53]),
        st.floats(1 / k, 1.0, exclude_max=True).filter(lambda p: Fraction(p) >= Fraction(1, k)),
    )
    return st.fixed_dictionaries({"categories": st.just(categories), "prob": probs})


def arguments():
    texts = st.lists(st.sampled_from(SMALL_VALUES["String"]), min_size=2, max_size=4, unique=True)
    ints = st.lists(st.integers(-1, 4), min_size=2, max_size=5, unique=True)
    return st.one_of(texts, ints).flatmap(_with_prob)


def _prob_ok(a) -> bool:
    k = len(a.categories)
    return type(a.prob) is float and (Fraction(1, k) <= Fraction(a.prob) < 1 or a.prob == 1 / k)


#: The symbols of BOUND, for the docs page.
SYMBOL_MEANINGS = {
    "prob": "the probability ``prob`` of releasing the true category",
    "k": "the number of (distinct) categories",
}

CONTRACT = MeasurementContract(
    constructor=make_randomized_response,
    preconditions=[
        Precondition(
            "categories-distinct",
            lambda a: (
                type_is(a.categories, list, tuple)
                and len(a.categories) >= 2
                and len(set(a.categories)) == len(a.categories)
                and all(c == c for c in a.categories)
            ),
            "categories must be a list of at least two distinct values of T, none NaN",
            parameter="categories",
        ),
        Precondition(
            "prob-in-range",
            _prob_ok,
            "prob must be a float in [1/k, 1) (or the f64 nearest 1/k)",
            parameter="prob",
        ),
    ],
    bound=BOUND,
    parameters=lambda arguments, built: {
        PROB: as_rational(arguments.prob),
        K: len(arguments.categories),
    },
    arguments=arguments,
    d_in=lambda built: st.sampled_from([0, 1, 2, 0.5]),
    divergence=_divergence,
)
