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
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.contracts import certified
from certdp.core.domains import AtomDomain
from certdp.core.errors import FailedMapError, MakeMeasurementError, shown, type_mismatch
from certdp.core.map_domain import MapDomain
from certdp.core.measure_argument import measure_requested
from certdp.core.measures import ApproximateDivergence, MaxDivergence, approximate, max_divergence
from certdp.core.metrics import AbsoluteDistance, Metric
from certdp.core.partial import partial_constructor
from certdp.core.partition_metrics import L0PInfDistance
from certdp.core.transformation import Measurement
from certdp.core.types import CarrierType
from certdp.measurements._laplace import exact_scale, integer_grid, laplace_map
from certdp.measurements._threshold import TripleMeasurement, threshold_delta
from certdp.samplers import discrete_laplace_sampler, entropy_source

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
        or input_metric.p != 1
        or not isinstance(inner.T, CarrierType)
        or not (inner.T == T or inner.T.is_float)
    ):  # label: metric-check
        error = MakeMeasurementError if isinstance(input_metric, Metric) else None
        raise (error or type_mismatch(MakeMeasurementError))(
            f"must be l01inf_distance(absolute_distance(T={T})) (or of a float type), "
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
    noise = discrete_laplace_sampler(scale)  # label: sampler
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
        output_measure=approximate(max_divergence()),  # label: output-measure
        privacy_map=threshold_map(scale, threshold),  # label: privacy-map
    )


# proof: end constructor


then_laplace_threshold = partial_constructor(make_laplace_threshold)
