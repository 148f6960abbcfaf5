"""``make_private_quantile``: the candidate whose quantile score is the noisy smallest.

Guarantee (``make_private_quantile.tex``): the measurement is the chain
``make_quantile_score_candidates >> make_noisy_max(negate=True)`` with noise scale
``fl(scale * den)`` (``den`` the scores' denominator of ``alpha``), followed by the map from the
released index to its candidate, a postprocessing; its privacy map is the chain's, the
composition of the proven maps of the two steps.  Sampling is noisy max's (exact).

Relation to OpenDP 0.16: ``alpha`` must lie in the open interval (0, 1); OpenDP also accepts 0
and 1, certdp refuses them with ``MakeTransformationError`` naming ``alpha`` (issue #22's rule).
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from certdp.contracts import certified
from certdp.core.admission import sequence_parameter
from certdp.core.domains import carrier_constant
from certdp.core.errors import (
    MakeMeasurementError,
    MakeTransformationError,
    shown,
    type_mismatch,
)
from certdp.core.exact_type import type_is
from certdp.core.partial import partial_constructor
from certdp.core.postprocess import Function, postprocess
from certdp.core.transformation import Measurement
from certdp.measurements.noisy_max import make_noisy_max
from certdp.transformations._dataset.arguments import dataset_input
from certdp.transformations.quantile_score_candidates import make_quantile_score_candidates
from certdp.transformations.quantile_score_candidates.make_quantile_score_candidates import (
    _candidates,
    _plain_values,
    score_constants,
)

__all__ = ["make_private_quantile", "then_private_quantile"]


# proof: begin constructor
def _scale(scale) -> float:
    """``scale`` as a finite float ``>= 0`` (an ``int`` as ``float()`` rounds it)."""
    if not type_is(scale, int, float):  # label: scale-type
        raise type_mismatch(MakeMeasurementError)(
            f"must be a float, got {shown(scale)}", parameter="scale"
        )
    try:
        scale = float(scale)  # label: scale-float
    except OverflowError:
        raise MakeMeasurementError(
            "must be finite, got an int beyond f64", parameter="scale"
        ) from None
    if not (math.isfinite(scale) and scale >= 0):  # label: scale-range
        raise MakeMeasurementError(
            f"must be finite and non-negative, got {shown(scale)}", parameter="scale"
        )
    return scale


def _sorted_candidates(candidates, T) -> tuple:
    """``candidates`` as ``_candidates`` makes them after a sorted copy (OpenDP sorts a copy):
    strictly increasing non-NaN values of ``T``; a ``range`` is read as its list."""
    if type(candidates) is range:
        candidates = list(candidates)  # label: sorted-range
    candidates = sequence_parameter(candidates)  # label: sorted-read
    # one read of a list: the bulk test and the sort see the same entries
    frozen = tuple(candidates) if type_is(candidates, list, tuple) else ()  # label: sorted-snapshot
    if _plain_values(frozen, T):  # label: sorted-plain
        candidates = sorted(frozen)  # label: sorted-plain-copy
    elif type_is(candidates, list, tuple):
        converted = [carrier_constant(candidate, T) for candidate in candidates]
        if all(
            value is not None and not (T.is_float and math.isnan(value)) for value in converted
        ):  # label: sorted-convertible
            candidates = sorted(converted)  # label: sorted-copy
    return _candidates(candidates, T)  # label: sorted-checked


def _alpha_float(alpha):
    """A ``Fraction`` or ``Decimal`` ``alpha`` as the float nearest to it (OpenDP reads
    ``alpha`` as an f64); any other value unchanged, for the scores to check."""
    if not type_is(alpha, Fraction, Decimal):
        return alpha
    try:
        return float(alpha)  # label: alpha-nearest
    except (OverflowError, ValueError):
        raise MakeTransformationError(
            f"must be a float in (0, 1), got {shown(alpha)}", parameter="alpha"
        ) from None


@certified
def make_private_quantile(
    input_domain, input_metric, output_measure, candidates, alpha, scale
) -> Measurement:
    """Release the candidate with the noisy least ``alpha``-quantile score (noisy max of the
    negated scores, noise scale ``scale * den``); max-divergence or zCDP."""
    T = dataset_input(input_domain, input_metric).T  # label: element-type
    values = _sorted_candidates(candidates, T) if T.is_numeric else ()  # label: values
    alpha = _alpha_float(alpha)  # label: alpha-float
    scores = make_quantile_score_candidates(  # label: scores
        input_domain, input_metric, values, alpha
    )
    den = score_constants(input_domain.size, float(alpha))[1]  # label: den
    noise_scale = _scale(scale) * float(den)  # label: noise-scale
    if not math.isfinite(noise_scale):  # label: noise-scale-finite
        raise MakeMeasurementError(
            f"scale * {den} (the scores' denominator of alpha) overflows f64, got scale "
            f"{shown(scale)}",
            parameter="scale",
        )
    selected = scores >> make_noisy_max(  # label: noisy-min
        *scores.output_space, output_measure, noise_scale, negate=True
    )

    def candidate(index):
        return values[index]  # label: candidate

    return postprocess(Function(candidate, "ExtrinsicObject"), selected)  # label: postprocess


# proof: end constructor


then_private_quantile = partial_constructor(make_private_quantile)
