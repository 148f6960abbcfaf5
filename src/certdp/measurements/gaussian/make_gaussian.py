"""``make_gaussian``: the Gaussian mechanism, with exact discrete Gaussian noise, under zCDP.

Guarantee (make_gaussian.tex): ``make_gaussian(input_domain, input_metric, scale, k, MO)``
adds independent exact discrete Gaussian noise of ``scale`` to an integer or to every
element of an integer vector (saturated to the carrier type), or, for floats, to the
nearest multiple of ``2^k`` of every element (rounded back to the float type); under the
absolute distance (atoms) or the L2 distance (vectors) the privacy map

    d_in -> (d_in + relaxation)^2 / (2 scale^2)     (rounded up)

is valid for the zero-concentrated divergence, with ``relaxation = 0`` for integers and
``(2^k - 2^k_min) * ceil_f64(sqrt(size))`` for floats (``size = 1`` for atoms).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, Domain, VectorDomain
from certdp.core.errors import MakeMeasurementError, shown, type_mismatch
from certdp.core.measure_argument import measure_requested
from certdp.core.measures import ZeroConcentratedDivergence, zero_concentrated_divergence
from certdp.core.metrics import AbsoluteDistance, L2Distance, Metric
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.core.types import CarrierType
from certdp.measurements._gaussian import gaussian_map, l2_relaxation
from certdp.measurements._laplace import exact_scale, get_discretization_consts, integer_grid
from certdp.samplers import (
    discrete_gaussian_batch_sampler,
    discrete_gaussian_Z2k_sampler,
    entropy_source,
)

__all__ = ["make_gaussian", "then_gaussian"]


# proof: begin constructor
def zcdp_requested(MO) -> bool:
    """Is ``MO`` the zero-concentrated divergence (its name, its class or an instance)?"""
    return measure_requested(MO, ZeroConcentratedDivergence(), "ZeroConcentratedDivergence")


def distance_type_fits(distance_T, T) -> bool:
    """May distances of type ``distance_T`` measure data of type ``T``: a carrier type that is
    ``T`` itself or (as in OpenDP) a float type over integer data?  False, never an exception,
    for anything that is not a carrier type."""
    return isinstance(distance_T, CarrierType) and (  # label: distance-type
        distance_T == T or (T.is_integer and distance_T.is_float)
    )


@certified
def make_gaussian(
    input_domain, input_metric, scale, k=None, MO="ZeroConcentratedDivergence"
) -> Measurement:
    """Add exact discrete Gaussian noise of ``scale`` (on ``2^k Z`` for floats); zCDP."""
    if not zcdp_requested(MO):  # label: measure-check
        raise MakeMeasurementError(
            f"must be ZeroConcentratedDivergence (the only output measure supported), got {shown(MO)}",
            parameter="MO",
        )
    vector = isinstance(input_domain, VectorDomain)
    atom = input_domain.element_domain if vector else input_domain
    if not isinstance(atom, AtomDomain) or not atom.T.is_numeric:  # label: domain-check
        error = MakeMeasurementError
        if not isinstance(input_domain, Domain):  # OpenDP raises TypeError for a non-domain
            error = type_mismatch(MakeMeasurementError)
        raise error(
            "must be atom_domain(T=...) or vector_domain(atom_domain(T=...)) of a numeric type, "
            f"got {shown(input_domain)}",
            parameter="input_domain",
        )
    T = atom.T
    metric = L2Distance if vector else AbsoluteDistance  # label: metric-kind
    if not isinstance(input_metric, metric) or not distance_type_fits(input_metric.T, T):
        wanted = "l2_distance" if vector else "absolute_distance"
        error = MakeMeasurementError
        if not isinstance(input_metric, Metric):  # OpenDP raises TypeError for a non-metric
            error = type_mismatch(MakeMeasurementError)
        raise error(  # label: metric-check
            f"must be {wanted}(T={T}) (or of a float type, for integers), got {shown(input_metric)}",
            parameter="input_metric",
        )
    scale = exact_scale(scale)  # label: scale-check
    if T.is_integer:
        if not integer_grid(k):  # label: k-check
            raise MakeMeasurementError(
                f"is only valid for domains over floats (None or 0 here), got {shown(k)}",
                parameter="k",
            )
        function = integer_release(scale, T, vector)
        relaxation = Fraction(0)  # label: integer-relaxation
    else:
        if atom.nan:  # label: no-nan
            raise MakeMeasurementError(
                "elements must exclude NaN: use atom_domain(T=..., nan=False)",
                parameter="input_domain",
            )
        k, relaxation = get_discretization_consts(k, T.name)  # label: discretization
        if relaxation != 0:
            size = input_domain.size if vector else 1
            if size is None:  # label: size-check
                raise MakeMeasurementError(
                    "domain size must be known if discretization is not exact",
                    parameter="input_domain",
                )
            relaxation = l2_relaxation(relaxation, size)  # label: total-relaxation
        function = float_release(scale, k, T, vector)
    return Measurement(
        input_domain=input_domain,
        function=function,
        input_metric=input_metric,
        output_measure=zero_concentrated_divergence(),  # label: output-measure
        privacy_map=gaussian_map(scale, relaxation),  # label: privacy-map
    )


def integer_release(scale: Fraction, T, vector: bool):
    """``x -> clamp(x + Z)`` elementwise, ``Z ~ N_Z(0, scale^2)`` independent."""
    noise = discrete_gaussian_batch_sampler(scale)  # label: integer-sampler
    lower, upper = T.min, T.max

    def release(values: list) -> list[int]:
        draws = noise(entropy_source(), len(values))  # label: integer-draws
        if draws.dtype == np.int64 and T.bits <= 32 and np.all(np.abs(draws) < 1 << 62):
            sums = np.asarray(values, dtype=np.int64) + draws  # label: int64-sums
            return np.clip(sums, lower, upper).tolist()  # label: int64-clip
        noisy = (int(x_i) + int(z) for x_i, z in zip(values, draws.tolist()))  # label: exact-sums
        return [min(max(value, lower), upper) for value in noisy]  # label: clip

    if vector:
        return release
    return lambda x: release([x])[0]  # label: integer-atom


def float_release(scale: Fraction, k: int, T, vector: bool):
    """``x -> round_T(2^k (c_k(x) + Z))`` elementwise, infinities first clamped to the largest
    finite values, ``Z ~ N_Z(0, (scale / 2^k)^2)`` independent."""
    sample = discrete_gaussian_Z2k_sampler(scale, k, T.name)  # label: float-sampler
    largest = T.max

    def release(values: list) -> list[float]:
        # binary64 holds every value of f32 and f64 exactly; infinities become +-largest
        finite = np.clip(np.asarray(values, dtype=np.float64), -largest, largest)  # label: clamp
        return sample(entropy_source(), finite)  # label: float-draws

    if vector:
        return release
    return lambda x: release([x])[0]  # label: float-atom


# proof: end constructor


then_gaussian = partial_constructor(make_gaussian)
