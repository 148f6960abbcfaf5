"""``make_laplace_threshold``: noisy counts of the keys that clear a threshold.

Guarantee (make_laplace_threshold.tex): over ``map_domain(key_domain, atom_domain(T=<integer
type>))`` under ``l01inf_distance(absolute_distance(D))`` (``D`` the value type, or f32/f64),
the release adds independent exact ``DLap(0, scale)`` noise to every value and keeps the keys
whose noisy value is ``>= threshold`` (``<= threshold`` for a negative threshold), saturated to
the value type. Its map sends ``(l0, l1, linf)`` to ``(epsilon, delta)`` under
``Approximate(MaxDivergence)``, with ``l1' = min(floor l1, floor linf * l0)``, ``linf' =
min(floor linf, l1')``, ``epsilon = l1' / scale`` (rounded up) and ``delta = 1 - (1 -
P[Z >= |threshold| - linf'])^l0`` computed exactly and rounded up: a key held on one side only
survives the threshold with probability at most ``P[Z >= |threshold| - linf']``, the event the
release tests (OpenDP 0.16 bounds the tail strictly beyond it, #2922).


Over ``map_domain(key_domain, atom_domain(T=<float type>, nan=False))`` (float_release.tex and
the section "Float values" of the proof) each value is rounded to its index on the grid ``2^k
Z`` (``k`` defaults to the smallest subnormal's exponent), exact ``DLap(0, scale / 2^k)`` noise is added to
the index, the keys whose noisy index reaches the threshold's index (a finite threshold ``>=
0``) are released as floats, and the map is the one above, with the grid scale and threshold,
at the distance of the grid indices (the float distance over ``2^k`` plus the rounding slack
``(2^k - 2^K_MIN) l0^(1/p)``)."""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.contracts import certified
from certdp.core.errors import FailedMapError, MakeMeasurementError, shown
from certdp.core.measure_argument import measure_requested
from certdp.core.measures import ApproximateDivergence, MaxDivergence, approximate, max_divergence
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements._laplace import laplace_map
from certdp.measurements._threshold import (
    TripleMeasurement,
    float_threshold_measurement,
    float_values,
    threshold_arguments,
    threshold_delta,
    threshold_function,
)
from certdp.samplers import discrete_laplace_sampler

__all__ = ["make_laplace_threshold", "then_laplace_threshold"]


# proof: begin constructor
def approximate_max_divergence_requested(MO) -> bool:
    """Is ``MO`` Approximate(MaxDivergence) (its OpenDP name or an instance)?"""
    return measure_requested(
        MO, ApproximateDivergence(MaxDivergence()), "Approximate<MaxDivergence>"
    )


def threshold_map(scale: Fraction, threshold: int):
    """The privacy map ``(l0, l1, linf) -> (epsilon, delta)`` of the release."""
    distance_map = laplace_map(scale, Fraction(0))
    reach = abs(threshold)  # label: reach

    def privacy_map(d_in) -> tuple[float, float]:
        l0, l1, linf = d_in
        l1 = min(math.floor(l1), math.floor(linf) * l0)  # label: l1-reduced
        linf = min(math.floor(linf), l1)  # label: linf-reduced
        if l0 == 0:  # label: no-change
            return 0.0, 0.0
        if scale == 0:  # label: zero-scale
            if l1 > 0:
                return math.inf, 1.0  # label: zero-scale-changed
            return 0.0, (0.0 if reach > 0 else 1.0)  # label: zero-scale-zeros
        epsilon = distance_map(l1)  # label: epsilon
        if linf > reach:  # label: reach-check
            raise FailedMapError(
                f"threshold ({threshold}) must not be smaller in magnitude than the "
                f"l-infinity distance {linf}",
                parameter="d_in",
            )
        delta = threshold_delta(scale, reach - linf, l0)  # label: delta
        return epsilon, delta

    return privacy_map


@certified
def make_laplace_threshold(
    input_domain, input_metric, scale, threshold, k=None, MO="Approximate<MaxDivergence>"
) -> Measurement:
    """Release the keys whose value plus exact discrete Laplace noise clears ``threshold``."""
    if not approximate_max_divergence_requested(MO):  # label: measure-check
        raise MakeMeasurementError(
            f"must be Approximate<MaxDivergence> (the only output measure supported), "
            f"got {shown(MO)}",
            parameter="MO",
        )
    if float_values(input_domain):  # label: float-branch
        return float_threshold_measurement(  # label: float-release
            input_domain, input_metric, scale, threshold, k, p=1,
            sampler=discrete_laplace_sampler, integer_map=threshold_map,
            output_measure=approximate(max_divergence()),
        )  # fmt: skip
    T, scale = threshold_arguments(  # label: arguments
        input_domain, input_metric, scale, threshold, k, p=1
    )
    noise = discrete_laplace_sampler(scale)  # label: sampler
    return TripleMeasurement(
        input_domain=input_domain,
        function=threshold_function(noise, threshold, T),  # label: function
        input_metric=input_metric,
        output_measure=approximate(max_divergence()),  # label: output-measure
        privacy_map=threshold_map(scale, threshold),  # label: privacy-map
    )


# proof: end constructor


then_laplace_threshold = partial_constructor(make_laplace_threshold)
