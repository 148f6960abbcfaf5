"""``make_noisy_top_k``: k indices of large scores, chosen privately one round at a time.

Guarantee (make_noisy_top_k.tex): under ``linf_distance`` the release is ``k`` indices
chosen in peeled rounds, each among the indices not yet chosen: permute-and-flip for the
max-divergence (for ``k >= 2`` not the top k of one exponentially noised vector, as OpenDP 0.16
runs it), the exponential mechanism for zCDP (the top k under Gumbel noise); the privacy map ``k R / scale`` (max-divergence) or ``k (R / scale)^2 / 8`` (zCDP), with
``R = d_in`` for a monotonic metric and ``2 d_in`` otherwise, rounded up, is valid.  A vector of
fewer than ``k`` scores is refused with ``FailedFunctionError`` (whether it raises depends only
on the length, which vectors at a finite L-infinity distance share); a fixed size below ``k`` is
refused when the measurement is built.

Relation to OpenDP 0.16: OpenDP releases all ``n`` indices of an unsized vector of ``n < k``
scores; certdp refuses it (issue #22: k larger than the candidates is refused).
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.errors import FailedFunctionError
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements._selection import (
    selection_arguments,
    selection_function,
    selection_map,
)

__all__ = ["make_noisy_top_k", "then_noisy_top_k"]


# proof: begin constructor
def full_ranking(ranking: list[int], k: int) -> list[int]:
    """The ranking of ``k`` indices; a typed error when there were fewer than ``k`` scores."""
    if len(ranking) < k:  # label: short
        raise FailedFunctionError(
            f"must hold at least k = {k} scores (k must not exceed the number of candidates), "
            f"got {len(ranking)}",
            parameter="arg",
        )
    return ranking  # label: ranking


@certified
def make_noisy_top_k(
    input_domain, input_metric, output_measure, k, scale, negate=False
) -> Measurement:
    """Release the indices of the ``k`` noisy largest (``negate``: smallest) scores."""
    T, monotonic, scale, noise = selection_arguments(  # label: arguments
        input_domain, input_metric, output_measure, k, scale, negate
    )
    top = selection_function(T, scale, k, negate, noise)  # label: top-k
    return Measurement(
        input_domain=input_domain,
        function=lambda x: full_ranking(top(x), k),  # label: function
        input_metric=input_metric,
        output_measure=output_measure,
        privacy_map=selection_map(monotonic, scale, k, noise),  # label: map
    )


# proof: end constructor


then_noisy_top_k = partial_constructor(make_noisy_top_k)
