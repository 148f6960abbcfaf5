"""Contract of ``make_private_quantile``: the theorem of make_private_quantile.tex, executable.

Bound: noisy max's bound (not monotonic, ``R = 2``, ``k = 1``) at the scores' bound, with the
noise scale ``sigma = fl(scale * fl(den))``.  The divergence checked for each pair of
neighbours is that of noisy max's index on the two score vectors (exact, from the selection
laws, ``negate`` on); the map from an index to its candidate is injective (the candidates are
distinct), so the released candidates have exactly that divergence.
"""

from __future__ import annotations

import sympy
from hypothesis import strategies as st

from certdp.contracts.contract import D_IN, MeasurementContract, Precondition
from certdp.core.measures import MaxDivergence
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
from certdp.transformations.quantile_score_candidates.contract import STEP, WEIGHT
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
    den = score_constants(input_domain.size, float(alpha))[1]
    return float(scale) * float(den)


def parameters(args, built) -> dict:
    found = dict(scores_contract._parameters(args, built))
    found[SCALE] = noise_scale(args.input_domain, args.alpha, args.scale)
    found[ZCDP] = 0 if isinstance(args.output_measure, MaxDivergence) else 1
    return found


def divergence(built, kwargs, x, x_prime):
    scores = make_quantile_score_candidates(
        kwargs["input_domain"], kwargs["input_metric"], kwargs["candidates"], kwargs["alpha"]
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
    if type(a.scale) not in (int, float):
        return False
    try:
        value = float(a.scale)
    except OverflowError:
        return False
    return value == value and 0 <= value < float("inf")


def _measure_ok(a) -> bool:
    return type(a.output_measure).__name__ in ("MaxDivergence", "ZeroConcentratedDivergence")


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
        _SCORES["candidates-strictly-increasing"],
        _SCORES["alpha-in-unit-interval"],
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
    d_in=lambda built: st.integers(0, 4),
    divergence=divergence,
    datasets_max_size=4,
)
