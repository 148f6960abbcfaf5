"""``make_noisy_max``: the index of the largest score, each score perturbed by noise.

Guarantee (make_noisy_max.tex): the release is the first index of ``make_noisy_top_k`` with
``k = 1`` (an empty vector is refused with ``FailedFunctionError``, as in OpenDP: whether it
raises depends only on the length, which vectors at a finite distance share), so its privacy map, ``R / scale`` (max-divergence) or
``(R / scale)^2 / 8`` (zCDP), ``R = d_in`` (monotonic) or ``2 d_in``, rounded up, is valid.
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

__all__ = ["make_noisy_max", "then_noisy_max"]


# proof: begin constructor
def first_index(ranking: list[int]) -> int:
    """The first index of a ranking; a typed error when there was no candidate."""
    if not ranking:  # label: empty
        raise FailedFunctionError("must hold at least one score, got []", parameter="arg")
    return ranking[0]  # label: first


@certified
def make_noisy_max(input_domain, input_metric, output_measure, scale, negate=False) -> Measurement:
    """Release the index of the noisy largest (``negate``: smallest) score."""
    T, monotonic, scale, noise = selection_arguments(  # label: arguments
        input_domain, input_metric, output_measure, 1, scale, negate
    )
    top = selection_function(T, scale, 1, negate, noise)  # label: top-one
    return Measurement(
        input_domain=input_domain,
        function=lambda x: first_index(top(x)),  # label: function
        input_metric=input_metric,
        output_measure=output_measure,
        privacy_map=selection_map(monotonic, scale, 1, noise),  # label: map
    )


# proof: end constructor


then_noisy_max = partial_constructor(make_noisy_max)
