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
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.contracts import certified
from certdp.core.domains import AtomDomain
from certdp.core.errors import FailedMapError, MakeMeasurementError, shown, type_mismatch
from certdp.core.map_domain import MapDomain
from certdp.core.measures import (
    ApproximateDivergence,
    ZeroConcentratedDivergence,
    approximate,
    zero_concentrated_divergence,
)
from certdp.core.metrics import AbsoluteDistance, Metric
from certdp.core.partial import partial_constructor
from certdp.core.partition_metrics import L0PInfDistance
from certdp.core.transformation import Measurement
from certdp.core.types import CarrierType
from certdp.measurements._laplace import exact_scale, integer_grid
from certdp.measurements._threshold import TripleMeasurement, gaussian_threshold_delta
from certdp.numeric import round_rational
from certdp.samplers import discrete_gaussian_sampler, entropy_source

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
    values = input_domain.value_domain if isinstance(input_domain, MapDomain) else None
    if type(values) is not AtomDomain or not values.T.is_integer:  # label: domain-check
        raise MakeMeasurementError(
            "must be map_domain(key_domain, atom_domain(T=<integer type>)) (float values are "
            f"not supported yet), got {shown(input_domain)}",
            parameter="input_domain",
        )
    T = values.T
    inner = input_metric.inner if isinstance(input_metric, L0PInfDistance) else None
    if (
        type(inner) is not AbsoluteDistance
        or input_metric.p != 2
        or not isinstance(inner.T, CarrierType)
        or not (inner.T == T or inner.T.is_float)
    ):  # label: metric-check
        error = MakeMeasurementError if isinstance(input_metric, Metric) else None
        raise (error or type_mismatch(MakeMeasurementError))(
            f"must be l02inf_distance(absolute_distance(T={T})) (or of a float type), "
            f"got {shown(input_metric)}",
            parameter="input_metric",
        )
    scale = exact_scale(scale)  # label: scale-check
    if not integer_grid(k):  # label: k-check
        raise MakeMeasurementError(
            f"is only valid for domains over floats (None or 0 here), got {shown(k)}",
            parameter="k",
        )
    if type(threshold) is not int or not T.min <= threshold <= T.max:  # label: threshold-check
        raise MakeMeasurementError(
            f"must be an integer of {T}, got {shown(threshold)}", parameter="threshold"
        )
    noise = discrete_gaussian_sampler(scale)  # label: sampler
    lower, upper = T.min, T.max

    def function(x: dict) -> dict:
        released = {}
        for key in sorted(x):  # label: key-order
            noisy = x[key] + noise(entropy_source())  # label: noisy
            if (noisy >= threshold) if threshold >= 0 else (noisy <= threshold):  # label: test
                released[key] = min(max(noisy, lower), upper)  # label: saturate
        return released

    return TripleMeasurement(
        input_domain=input_domain,
        function=function,
        input_metric=input_metric,
        output_measure=approximate(zero_concentrated_divergence()),  # label: output-measure
        privacy_map=gaussian_threshold_map(scale, threshold),  # label: privacy-map
    )


# proof: end constructor


then_gaussian_threshold = partial_constructor(make_gaussian_threshold)
