"""``make_gaussian_threshold``: noisy counts of the keys that clear a threshold, under zCDP.

Guarantee (make_gaussian_threshold.tex): over ``map_domain(key_domain, atom_domain(T=<integer
type>))`` under ``l02inf_distance(absolute_distance(D))`` (``D`` the value type, or f32/f64),
the release adds independent exact ``N_Z(0, scale^2)`` noise to every value and keeps the keys
whose noisy value is ``>= threshold`` (``<= threshold`` for a negative threshold), saturated to
the value type. Its map sends ``(l0, l2, linf)`` to ``(rho, delta)`` under
``Approximate(ZeroConcentratedDivergence)``, with ``linf' = floor linf``, ``q = min(floor
l2^2, linf'^2 l0)`` (the squared l2 distance of integer values), ``linf'' = min(linf',
isqrt q)``, ``rho = q / (2 scale^2)`` rounded up and ``delta >= 1 - (1 - P[Z >= |threshold| -
linf''])^l0`` (an upper bound of the tail, gaussian_tail.tex, rounded up): a key held on one
side only survives the threshold with probability at most ``P[Z >= |threshold| - linf'']``.


Over ``map_domain(key_domain, atom_domain(T=<float type>, nan=False))`` (float_release.tex and
the section "Float values" of the proof) each value is rounded to its index on the grid ``2^k
Z`` (``k`` defaults to the smallest subnormal's exponent), exact ``N_Z(0, (scale / 2^k)^2)`` noise is added to
the index, the keys whose noisy index reaches the threshold's index (a finite threshold ``>=
0``) are released as floats, and the map is the one above, with the grid scale and threshold,
at the distance of the grid indices (the float distance over ``2^k`` plus the rounding slack
``(2^k - 2^K_MIN) l0^(1/p)``)."""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.contracts import certified
from certdp.core.errors import FailedMapError, MakeMeasurementError, shown
from certdp.core.measures import (
    ApproximateDivergence,
    ZeroConcentratedDivergence,
    approximate,
    zero_concentrated_divergence,
)
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements._threshold import (
    TripleMeasurement,
    float_threshold_measurement,
    float_values,
    gaussian_threshold_delta,
    threshold_arguments,
    threshold_function,
)
from certdp.numeric import round_rational
from certdp.samplers import discrete_gaussian_sampler

__all__ = ["make_gaussian_threshold", "then_gaussian_threshold"]


# proof: begin constructor
def approximate_zcdp_requested(MO) -> bool:
    """Is ``MO`` Approximate(ZeroConcentratedDivergence) (its OpenDP name or an instance)?"""
    if MO == "Approximate<ZeroConcentratedDivergence>":
        return True
    return isinstance(MO, ApproximateDivergence) and type(MO.measure) is ZeroConcentratedDivergence


def gaussian_threshold_map(scale: Fraction, threshold: int):
    """The privacy map ``(l0, l2, linf) -> (rho, delta)`` of the release."""
    reach = abs(threshold)  # label: reach

    def privacy_map(d_in) -> tuple[float, float]:
        l0, l2, linf = d_in
        linf = math.floor(linf)  # label: linf-floor
        squared = min(math.floor(l2 * l2), linf * linf * l0)  # label: l2-reduced
        linf = min(linf, math.isqrt(squared))  # label: linf-reduced
        if l0 == 0:  # label: no-change
            return 0.0, 0.0
        if scale == 0:  # label: zero-scale
            if squared > 0:
                return math.inf, 1.0  # label: zero-scale-changed
            return 0.0, (0.0 if reach > 0 else 1.0)  # label: zero-scale-zeros
        exact_rho = Fraction(squared) / (2 * scale * scale)
        rho = math.inf  # label: rho-beyond
        if exact_rho < 2**1023:
            rho = round_rational(exact_rho, "f64", "up")  # label: rho
        if linf > reach:  # label: reach-check
            raise FailedMapError(
                f"threshold ({threshold}) must not be smaller in magnitude than the "
                f"l-infinity distance {linf}",
                parameter="d_in",
            )
        delta = gaussian_threshold_delta(scale, reach - linf, l0)  # label: delta
        return rho, delta

    return privacy_map


@certified
def make_gaussian_threshold(
    input_domain,
    input_metric,
    scale,
    threshold,
    k=None,
    MO="Approximate<ZeroConcentratedDivergence>",
) -> Measurement:
    """Release the keys whose value plus exact discrete Gaussian noise clears ``threshold``."""
    if not approximate_zcdp_requested(MO):  # label: measure-check
        raise MakeMeasurementError(
            f"must be Approximate<ZeroConcentratedDivergence> (the only output measure "
            f"supported), got {shown(MO)}",
            parameter="MO",
        )
    if float_values(input_domain):  # label: float-branch
        return float_threshold_measurement(  # label: float-release
            input_domain, input_metric, scale, threshold, k, p=2,
            sampler=discrete_gaussian_sampler, integer_map=gaussian_threshold_map,
            output_measure=approximate(zero_concentrated_divergence()),
        )  # fmt: skip
    T, scale = threshold_arguments(  # label: arguments
        input_domain, input_metric, scale, threshold, k, p=2
    )
    noise = discrete_gaussian_sampler(scale)  # label: sampler
    return TripleMeasurement(
        input_domain=input_domain,
        function=threshold_function(noise, threshold, T),  # label: function
        input_metric=input_metric,
        output_measure=approximate(zero_concentrated_divergence()),  # label: output-measure
        privacy_map=gaussian_threshold_map(scale, threshold),  # label: privacy-map
    )


# proof: end constructor


then_gaussian_threshold = partial_constructor(make_gaussian_threshold)
