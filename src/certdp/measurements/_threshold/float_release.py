"""The float-valued threshold release: values rounded to the grid ``2^k Z`` and released
through the integer release on the grid indices.

Guarantee (float_release.tex): :func:`float_threshold_arguments` returns ``(T, k, grid
scale, grid threshold, relaxation)`` for ``map_domain(key_domain, atom_domain(T=<float
type>, nan=False))`` under ``l0{p}inf_distance(absolute_distance(D))`` (``D`` a float type or
``T``), an exact ``scale``, ``k`` in ``[K_MIN[T], K_MAX[T]]`` (default ``K_MIN[T]``) and a
finite non-negative ``threshold`` of ``T``; the grid scale is ``scale / 2^k``, the grid
threshold ``nearest_grid_index(threshold, k)`` and ``relaxation = 2^k - 2^K_MIN[T]``;
anything else raises :class:`MakeMeasurementError` naming the first parameter that fails.
:func:`float_threshold_function` rounds each value (clamped to the finite range of ``T``) to
its grid index ``c``, adds one draw ``Z`` of ``noise`` and keeps the keys with ``c + Z >=``
the grid threshold, released as ``round_T(2^k (c + Z))``. :func:`grid_distance` sends a float
distance ``(l0, lp, linf)`` to a distance of the grid indices: ``((lp + relaxation
root_p(l0)) / 2^k, (linf + relaxation) / 2^k)`` with ``root_p(l0)`` an upper bound of
``l0^(1/p)``, and refuses ``linf > threshold`` with :class:`FailedMapError`.
:func:`float_threshold_measurement` is the float branch of both constructors: given a noise
family (``sampler``, ``integer_map``) whose integer release on integer-valued maps is valid
under ``output_measure`` (the hypothesis of Lemma [float threshold measurement]), it returns a
valid measurement that draws ``sampler(grid scale)`` on the grid indices and whose map is
``integer_map(grid scale, grid threshold)`` at the grid distance.
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.core.domains import AtomDomain
from certdp.core.errors import FailedMapError, MakeMeasurementError, shown, type_mismatch
from certdp.core.exact_type import type_is
from certdp.core.map_domain import MapDomain
from certdp.core.metrics import AbsoluteDistance, Metric
from certdp.core.partition_metrics import L0PInfDistance
from certdp.core.types import CarrierType
from certdp.measurements._laplace import exact_scale, get_discretization_consts
from certdp.numeric import is_representable
from certdp.samplers import entropy_source
from certdp.samplers.discrete_laplace_z2k import grid_point_to_float, nearest_grid_index

from .triple_measurement import TripleMeasurement

__all__ = [
    "float_values",
    "float_threshold_arguments",
    "float_threshold_function",
    "grid_distance",
    "float_threshold_measurement",
]


# proof: begin float-release
#: Bits of the dyadic upper bound of ``sqrt(l0)`` used for ``p = 2``.
ROOT_BITS = 64  # label: root-bits


def float_values(input_domain) -> bool:
    """Does ``input_domain`` hold maps to float values?"""
    values = input_domain.value_domain if isinstance(input_domain, MapDomain) else None
    return type(values) is AtomDomain and values.T.is_float  # label: float-values


def float_threshold_arguments(input_domain, input_metric, scale, threshold, k, p: int):
    """``(T, k, scale / 2^k, grid threshold, relaxation)`` of a float threshold release."""
    values = input_domain.value_domain
    T = values.T
    if values.nan:  # label: nan-check
        raise MakeMeasurementError(
            "must not admit NaN values: use atom_domain(T=<float type>, nan=False), got "
            f"{shown(input_domain)}",
            parameter="input_domain",
        )
    inner = input_metric.inner if isinstance(input_metric, L0PInfDistance) else None
    if (
        type(inner) is not AbsoluteDistance
        or input_metric.p != p
        or not isinstance(inner.T, CarrierType)
        or not (inner.T == T or inner.T.is_float)
    ):  # label: float-metric-check
        error = MakeMeasurementError if isinstance(input_metric, Metric) else None
        raise (error or type_mismatch(MakeMeasurementError))(
            f"must be l0{p}inf_distance(absolute_distance(T={T})) (or of a float type), "
            f"got {shown(input_metric)}",
            parameter="input_metric",
        )
    scale = exact_scale(scale)  # label: float-scale-check
    k, relaxation = get_discretization_consts(k, T.name)  # label: k-check
    if (
        not type_is(threshold, int, float)
        or not is_representable(threshold, T.name)
        or threshold < 0
    ):  # label: float-threshold-check
        raise MakeMeasurementError(
            f"must be a finite non-negative value of {T}, got {shown(threshold)}",
            parameter="threshold",
        )
    grid_scale = scale / Fraction(2) ** k  # label: grid-scale
    grid_threshold = nearest_grid_index(float(threshold), k)  # label: grid-threshold
    return T, k, grid_scale, grid_threshold, relaxation  # label: float-arguments


def float_threshold_function(noise, grid_threshold: int, k: int, T):
    """The release: keys whose rounded value plus grid noise reach the grid threshold."""
    lower, upper = T.min, T.max

    def function(x: dict) -> dict:
        released = {}
        for key in sorted(x):  # label: float-key-order
            index = nearest_grid_index(min(max(x[key], lower), upper), k)  # label: index
            noisy = index + noise(entropy_source())  # label: float-noisy
            if noisy >= grid_threshold:  # label: float-test
                released[key] = grid_point_to_float(noisy, k, T.name)  # label: float-value
        return released

    return function


def root_up(l0: int, p: int) -> Fraction:
    """An exact rational ``>= l0^(1/p)`` for ``p`` in ``{1, 2}``."""
    if p == 1:
        return Fraction(l0)  # label: root-one
    return Fraction(math.isqrt(l0 << (2 * ROOT_BITS)) + 1, 1 << ROOT_BITS)  # label: root-two


def grid_distance(d_in, threshold, k: int, relaxation: Fraction, p: int):
    """The distance ``(l0, lp, linf)`` of the grid indices for a float distance ``d_in``."""
    l0, lp, linf = d_in
    if linf > Fraction(threshold):  # label: float-reach-check
        raise FailedMapError(
            f"threshold ({threshold}) must not be smaller than the l-infinity distance {linf}",
            parameter="d_in",
        )
    unit = Fraction(2) ** k
    grid_lp = (lp + relaxation * root_up(l0, p)) / unit  # label: grid-lp
    grid_linf = (linf + relaxation) / unit  # label: grid-linf
    return l0, grid_lp, grid_linf  # label: grid-distance


def float_threshold_measurement(
    input_domain, input_metric, scale, threshold, k, p: int, sampler, integer_map, output_measure
) -> TripleMeasurement:
    """The float release of a threshold measurement: ``sampler(grid scale)`` noise on the grid
    indices, and the map ``integer_map(grid scale, grid threshold)`` at the grid distance."""
    T, k, grid_scale, index, relaxation = float_threshold_arguments(  # label: release-arguments
        input_domain, input_metric, scale, threshold, k, p
    )
    function = float_threshold_function(sampler(grid_scale), index, k, T)  # label: float-function
    grid_map = integer_map(grid_scale, index)  # label: grid-map

    def privacy_map(d_in) -> tuple[float, float]:
        return grid_map(grid_distance(d_in, threshold, k, relaxation, p))  # label: float-map

    return TripleMeasurement(  # label: float-measurement
        input_domain=input_domain,
        function=function,
        input_metric=input_metric,
        output_measure=output_measure,
        privacy_map=privacy_map,
    )


# proof: end float-release
