"""Contract of ``make_private_quantile``: the theorem of make_private_quantile.tex, executable.

Bound: noisy max's bound (not monotonic, ``R = 2``, ``k = 1``) at the scores' bound, with the
noise scale ``sigma = fl(scale * fl(den))``.  The divergence checked for each pair of
neighbours is that of noisy max's index on the two score vectors (exact, from the selection
laws, ``negate`` on); the map from an index to its candidate is injective (the candidates are
distinct), so the released candidates have exactly that divergence.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, MeasurementContract, Precondition
from certdp.core.admission import sequence_parameter
from certdp.core.domains import carrier_constant
from certdp.core.exact_type import type_is
from certdp.core.measures import MaxDivergence, ZeroConcentratedDivergence
from certdp.measurements._selection.contract_support import BOUND as SELECTION_BOUND
from certdp.measurements._selection.contract_support import (
    FACTOR,
    MEASURES,
    SCALE,
    ZCDP,
    K,
    divergence_of,
)
from certdp.measurements._selection.contract_support import (
    SYMBOL_MEANINGS as SELECTION_MEANINGS,
)
from certdp.transformations.quantile_score_candidates import contract as scores_contract
from certdp.transformations.quantile_score_candidates import make_quantile_score_candidates
from certdp.transformations.quantile_score_candidates.contract import STEP, WEIGHT, largest_d_in
from certdp.transformations.quantile_score_candidates.make_quantile_score_candidates import (
    score_constants,
)

from .make_private_quantile import make_private_quantile

__all__ = ["CONTRACT", "SYMBOL_MEANINGS", "noise_scale"]

#: noisy max's bound (k = 1, R = 2: the score metric is not monotonic) at the scores' bound
BOUND = SELECTION_BOUND.subs({K: 1, FACTOR: 2}).subs(D_IN, sympy.floor(D_IN / STEP) * WEIGHT)

SYMBOL_MEANINGS = {
    "scale": "the noise scale of the noisy max, fl(scale * fl(den)), den the scores' "
    "denominator of alpha",
    "zcdp": SELECTION_MEANINGS["zcdp"],
    **scores_contract.SYMBOL_MEANINGS,
}


def noise_scale(input_domain, alpha, scale) -> float:
    """``fl(scale * fl(den))``, computed from the arguments as the proof states it."""
    den = score_constants(input_domain.size, float(alpha_float(alpha)))[1]
    return float(scale) * float(den)


def parameters(args, built) -> dict:
    found = dict(scores_contract._parameters(args, built))
    found[SCALE] = noise_scale(args.input_domain, args.alpha, args.scale)
    found[ZCDP] = 0 if isinstance(args.output_measure, MaxDivergence) else 1
    return found


def sorted_values(candidates, T) -> list:
    """The candidates as values of ``T`` in increasing order (the proof's C)."""
    return sorted(carrier_constant(c, T) for c in candidates)


def alpha_float(alpha):
    """A ``Fraction`` or ``Decimal`` alpha as its nearest float, as the proof reads it."""
    return float(alpha) if type_is(alpha, Fraction, Decimal) else alpha


def divergence(built, kwargs, x, x_prime):
    T = kwargs["input_domain"].element_domain.T
    scores = make_quantile_score_candidates(
        kwargs["input_domain"],
        kwargs["input_metric"],
        sorted_values(kwargs["candidates"], T),
        alpha_float(kwargs["alpha"]),
    )
    sigma = noise_scale(kwargs["input_domain"], kwargs["alpha"], kwargs["scale"])
    return divergence_of(
        built,
        {"scale": sigma},
        scores(x),
        scores(x_prime),
        k=1,
        negate=True,
        measure=kwargs["output_measure"],
        first_only=True,
    )


@st.composite
def arguments(draw):
    found = draw(scores_contract.arguments())
    found["candidates"] = found["candidates"][:3]  # the exact laws sum over k! orders
    found["output_measure"] = draw(MEASURES)
    found["scale"] = draw(st.sampled_from([0.0, 0.5, 1.0, 3.0, 2, 1e-3]))
    return found


def _scale_ok(a) -> bool:
    if not type_is(a.scale, int, float):
        return False
    try:
        value = float(a.scale)
    except OverflowError:
        return False
    return value == value and 0 <= value < float("inf")


def _candidates_ok(a) -> bool:
    candidates = a.candidates
    candidates = list(candidates) if type(candidates) is range else candidates
    candidates = sequence_parameter(candidates)  # an array or Series: its list of values
    if not type_is(candidates, list, tuple) or not candidates:
        return False
    T = a.input_domain.element_domain.T
    values = [carrier_constant(c, T) for c in candidates]
    if any(v is None or (T.is_float and math.isnan(v)) for v in values):
        return False
    ordered = sorted(values)
    return all(ordered[i - 1] < ordered[i] for i in range(1, len(ordered)))


def _alpha_ok(a) -> bool:
    alpha = a.alpha
    if type_is(alpha, Fraction, Decimal):
        try:
            alpha = float(alpha)
        except (OverflowError, ValueError):
            return False
    return type(alpha) is float and 0.0 < alpha < 1.0


def _measure_ok(a) -> bool:
    return type_is(a.output_measure, MaxDivergence, ZeroConcentratedDivergence)


_SCORES = {p.id: p for p in scores_contract.CONTRACT.preconditions}

CONTRACT = MeasurementContract(
    constructor=make_private_quantile,
    preconditions=[
        _SCORES["input-domain-vector-of-non-nan-numbers"],
        _SCORES["input-metric-symmetric-or-insert-delete"],
        Precondition(
            "selection-measure",
            _measure_ok,
            "output_measure must be max_divergence() or zero_concentrated_divergence()",
            parameter="output_measure",
        ),
        Precondition(
            "candidates-distinct",
            _candidates_ok,
            "candidates must be a non-empty list of distinct non-NaN values of the type",
            parameter="candidates",
        ),
        Precondition(
            "alpha-in-unit-interval",
            _alpha_ok,
            "alpha must be a float in the open interval (0, 1) (or a Fraction or Decimal whose "
            "nearest float is)",
            parameter="alpha",
        ),
        Precondition(
            "scale-finite",
            _scale_ok,
            "scale must be an int or float whose float() is finite and >= 0",
            parameter="scale",
        ),
    ],
    bound=BOUND,
    parameters=parameters,
    arguments=arguments,
    # (a distance the scores' map refuses as no u64, alpha = 1e-300 with a size, is not drawn)
    d_in=lambda built: st.integers(0, largest_d_in(built, 4)),
    divergence=divergence,
    datasets_max_size=4,
)
