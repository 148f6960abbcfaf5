"""The argument checks and the release function shared by the thresholded noise measurements.

Guarantee (threshold_release.tex): :func:`threshold_arguments` returns the integer value type
``T`` of ``map_domain(key_domain, atom_domain(T=<integer type>))`` and the exact scale when
``input_metric`` is ``l0{p}inf_distance(absolute_distance(D))`` (``D`` that ``T`` or a float
type), ``scale`` passes ``exact_scale`` (a long double read exactly first), ``k`` is ``None`` or ``0`` and ``threshold`` is an
integer of ``T``; otherwise it raises :class:`MakeMeasurementError` naming the first parameter
that fails, in that order. :func:`threshold_function` visits the keys in sorted order, adds one
draw of ``noise`` to each value and keeps the keys whose noisy value is ``>= threshold``
(``<= threshold`` for a negative threshold), clamped to the range of ``T``.
"""

from __future__ import annotations

import numpy as np

from certdp.core.conversion import exact_scalar
from certdp.core.domains import AtomDomain
from certdp.core.errors import MakeMeasurementError, shown, type_mismatch
from certdp.core.map_domain import MapDomain
from certdp.core.metrics import AbsoluteDistance, Metric
from certdp.core.partition_metrics import L0PInfDistance
from certdp.core.types import CarrierType
from certdp.measurements._laplace import exact_scale, integer_grid
from certdp.samplers import entropy_source

__all__ = ["threshold_arguments", "threshold_function"]


# proof: begin release
def threshold_arguments(input_domain, input_metric, scale, threshold, k, p: int):
    """``(T, exact scale)`` of a threshold release over integer values under ``l0{p}inf``."""
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
        or input_metric.p != p
        or not isinstance(inner.T, CarrierType)
        or not (inner.T == T or inner.T.is_float)
    ):  # label: metric-check
        error = MakeMeasurementError if isinstance(input_metric, Metric) else None
        raise (error or type_mismatch(MakeMeasurementError))(
            f"must be l0{p}inf_distance(absolute_distance(T={T})) (or of a float type), "
            f"got {shown(input_metric)}",
            parameter="input_metric",
        )
    if type(scale) is np.longdouble:  # label: scale-longdouble
        # read exactly as the boundary does (exact_scale also reads it exactly: the same value)
        scale = exact_scalar(scale, "scale", MakeMeasurementError)
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
    return T, scale  # label: arguments


def threshold_function(noise, threshold: int, T):
    """The release: noisy values of the keys that clear ``threshold``, clamped to ``T``."""
    lower, upper = T.min, T.max

    def function(x: dict) -> dict:
        released = {}
        for key in sorted(x):  # label: key-order
            noisy = x[key] + noise(entropy_source())  # label: noisy
            if (noisy >= threshold) if threshold >= 0 else (noisy <= threshold):  # label: test
                released[key] = min(max(noisy, lower), upper)  # label: saturate
        return released

    return function


# proof: end release
