"""Contract of ``make_select_private_candidate``: the theorem of
make_select_private_candidate.tex, executable.

The bound is ``2 * map(d_in)`` of the inner measurement, exactly.  The inner measurements drawn
are toys with finitely many outcomes: randomized response over a few integer categories, each
release ``c`` read as the pair ``(c, c)`` (score ``c``).  For them the law of the combinator's
output is computed exactly from the proof's Lemma [law]: a hit ``(c, c)`` (``c >= tau``) has
probability ``q(c) / D`` and ``None`` has ``gamma (1 - h) / D``, with ``h`` the inner
probability of a hit and ``D = gamma + (1 - gamma) h``; the divergence of a pair of inputs is
the largest exact likelihood ratio of these two laws (sympy).
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.combinators._support.contract_support import CombinatorContract
from certdp.contracts.common import measurement_with_output_measure
from certdp.contracts.contract import Precondition
from certdp.core.exact_type import type_is
from certdp.core.measures import MaxDivergence
from certdp.core.transformation import Measurement
from certdp.measurements._randomized_response.contract_support import max_divergence

from .make_select_private_candidate import make_select_private_candidate

INNER_EPSILON = sympy.Symbol("epsilon", nonnegative=True)

#: The symbols of the bound, for the docs page.
SYMBOL_MEANINGS = {"epsilon": "the inner measurement's map at :math:`d_{in}`"}


def scored_randomized_response(categories, prob) -> Measurement:
    """Randomized response over integer ``categories``, each release ``c`` given as ``(c, c)``
    (a valid pure-DP measurement releasing scored pairs: postprocessing of a valid one)."""
    from certdp.measurements.randomized_response import make_randomized_response

    inner = make_randomized_response(categories, prob)
    scored = Measurement(
        input_domain=inner.input_domain,
        function=lambda x: (lambda c: (c, c))(inner.invoke(x)),
        input_metric=inner.input_metric,
        output_measure=inner.output_measure,
        privacy_map=inner.map,
    )
    scored.toy_law = lambda x: _rr_law(categories, prob, x)
    return scored


def _rr_law(categories, prob, x) -> dict:
    k, p = len(categories), Fraction(prob)
    if x not in categories:
        return {c: Fraction(1, k) for c in categories}
    return {c: p if c == x else (1 - p) / (k - 1) for c in categories}


def output_law(inner_law: dict, gamma, tau) -> dict:
    """The exact law of the combinator's output (Lemma [law] of the proof) for an inner law
    on scored pairs ``(c, c)`` given as ``{c: probability}``."""
    gamma = Fraction(gamma)
    h = sum((q for c, q in inner_law.items() if c >= tau), Fraction(0))
    denominator = gamma + (1 - gamma) * h
    law = {(c, c): q / denominator for c, q in inner_law.items() if c >= tau}
    law[None] = gamma * (1 - h) / denominator
    return law


def _divergence(built, kwargs, x, x_prime):
    inner = kwargs["measurement"]
    gamma, tau = kwargs["stop_probability"], kwargs["threshold"]
    return max_divergence(
        output_law(inner.toy_law(x), gamma, tau), output_law(inner.toy_law(x_prime), gamma, tau)
    )


def _inner():
    categories = st.lists(st.integers(-2, 4), min_size=2, max_size=4, unique=True)
    return categories.flatmap(
        lambda cats: (
            st.sampled_from([0.5, 0.75, 0.9, 0.99, 1 - 2**-53])  # prob 1 is refused (#22)
            .filter(lambda p: Fraction(p) >= Fraction(1, len(cats)))
            .map(lambda p: scored_randomized_response(cats, p))
        )
    )


def arguments(smallest_stop: float = 0.0):
    return st.fixed_dictionaries(
        {
            "measurement": _inner(),
            "stop_probability": st.one_of(
                st.sampled_from([1e-9, 0.01, 0.1, 0.5, 0.9, 1 - 2**-53]),
                st.floats(0, 1, exclude_min=True, exclude_max=True),
            ).filter(lambda gamma: gamma >= smallest_stop),
            "threshold": st.one_of(st.integers(-3, 5), st.sampled_from([0.5, 2.5, -1e300])),
        }
    )


def invocation_arguments():
    """Arguments whose releases end quickly: a run whose scores miss the threshold takes about
    1 / stop_probability passes (the docstring's warning), so invocations draw it >= 0.01."""
    return arguments(smallest_stop=0.01)


def _closed_form(arguments, d_in):
    epsilon = arguments.measurement.map(d_in)
    return sympy.oo if epsilon == math.inf else 2 * Fraction(epsilon)


def _gamma_ok(a) -> bool:
    return type_is(a.stop_probability, int, float, Fraction) and 0 < a.stop_probability < 1


def _tau_ok(a) -> bool:
    return type_is(a.threshold, int, float, Fraction) and math.isfinite(a.threshold)


CONTRACT = CombinatorContract(
    constructor=make_select_private_candidate,
    preconditions=[
        # the form of each release (a pair whose score is a number, not NaN) is checked by the
        # code on every release; the contract checks the output measure
        measurement_with_output_measure("measurement-scored-pure-dp", MaxDivergence),
        Precondition(
            "stop-probability-range",
            _gamma_ok,
            "stop_probability must be a number in (0, 1)",
            parameter="stop_probability",
        ),
        Precondition(
            "threshold-finite", _tau_ok, "threshold must be a finite number", parameter="threshold"
        ),
    ],
    bound=2 * INNER_EPSILON,
    arguments=arguments,
    invocation_arguments=invocation_arguments,
    d_in=lambda built: st.sampled_from([0, 1, 2]),
    divergence=_divergence,
    closed_form=_closed_form,
)
