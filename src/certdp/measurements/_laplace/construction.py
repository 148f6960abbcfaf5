"""The steps the four Laplace constructors share: checking their arguments and building the
measurement.

Guarantee (construction.tex): :func:`laplace_arguments` returns ``(T, scale, k, relaxation)``
when ``input_domain`` is an atom domain (or, with ``vector=True``, a vector domain of atoms) of
integers (``integer=True``) or of NaN-free floats, ``input_metric`` is ``absolute_distance(D)``
(atoms) or ``l1_distance(D)`` (vectors) with ``D`` the carrier type ``T`` or, over integers, f32
or f64 (a float ``d_in`` bounds the integer distance as well), ``scale`` is finite and
non-negative, and ``k`` fits the grid (``None`` or 0 for integers, which get ``k = 0`` and
``relaxation = 0``; the checked constants of ``get_discretization_consts`` for floats); else it
raises :class:`MakeMeasurementError` naming the parameter and the rule.
:func:`laplace_measurement` returns the measurement of ``function`` under the max-divergence
whose privacy map is ``laplace_map(scale, relaxation)``.
"""

from __future__ import annotations

from fractions import Fraction

from certdp.core.domains import AtomDomain, VectorDomain
from certdp.core.errors import MakeMeasurementError, shown, type_mismatch
from certdp.core.measures import max_divergence
from certdp.core.metrics import AbsoluteDistance, L1Distance, Metric
from certdp.core.transformation import Measurement
from certdp.core.types import CarrierType

from .discretization import get_discretization_consts
from .laplace_map import laplace_map
from .parameters import exact_scale, integer_grid

__all__ = ["laplace_arguments", "laplace_measurement"]


# proof: begin construction
def distance_type_fits(distance_T, T) -> bool:
    """May distances of type ``distance_T`` measure data of type ``T``: a carrier type that is
    ``T`` itself or (as in OpenDP) a float type over integer data? False, never an exception,
    for anything that is not a carrier type."""
    return isinstance(distance_T, CarrierType) and (  # label: distance-type
        distance_T == T or (T.is_integer and distance_T.is_float)
    )


def laplace_arguments(input_domain, input_metric, scale, k, *, vector: bool, integer: bool):
    """``(T, scale, k, relaxation)`` of a Laplace measurement; a typed error naming the
    parameter and its rule for arguments outside the constructor's preconditions."""
    wanted = "T=<integer type>" if integer else "T=f32|f64, nan=False"
    if vector:
        atom = input_domain.element_domain if isinstance(input_domain, VectorDomain) else None
        wanted = f"vector_domain(atom_domain({wanted}))"
    else:
        atom = input_domain
        wanted = f"atom_domain({wanted})"
    is_atom = isinstance(atom, AtomDomain)
    of_kind = is_atom and (atom.T.is_integer if integer else atom.T.is_float)
    if not is_atom or not (vector or of_kind):  # label: domain-shape
        raise MakeMeasurementError(
            f"must be {wanted}, got {shown(input_domain)}", parameter="input_domain"
        )
    T = atom.T
    if not of_kind:  # label: element-type
        kind = "of an integer type" if integer else "f32 or f64"
        raise MakeMeasurementError(f"elements must be {kind}, got {T}", parameter="input_domain")
    if not integer and atom.nan:  # label: no-nan
        rule = "must exclude NaN: use atom_domain(T=..., nan=False)"
        raise MakeMeasurementError(f"elements {rule}" if vector else rule, parameter="input_domain")
    metric, name = (
        (L1Distance, "l1_distance") if vector else (AbsoluteDistance, "absolute_distance")
    )
    if not isinstance(input_metric, metric) or not distance_type_fits(input_metric.T, T):
        wanted = f"{name}(T={T})" + (" (or of a float type, for integers)" if integer else "")
        error = MakeMeasurementError
        if not isinstance(input_metric, Metric):  # OpenDP raises TypeError for a non-metric
            error = type_mismatch(MakeMeasurementError)
        raise error(  # label: metric-check
            f"must be {wanted}, got {shown(input_metric)}", parameter="input_metric"
        )
    scale = exact_scale(scale)  # label: scale-check
    if not integer:
        k, relaxation = get_discretization_consts(k, T.name)  # label: discretization
        return T, scale, k, relaxation
    if not integer_grid(k):  # label: k-check
        raise MakeMeasurementError(
            f"is only valid for domains over floats (None or 0 here), got {shown(k)}", parameter="k"
        )
    return T, scale, 0, Fraction(0)  # label: integer-grid


def laplace_measurement(input_domain, input_metric, function, scale, relaxation) -> Measurement:
    """The measurement of ``function`` under the max-divergence with the map
    ``laplace_map(scale, relaxation)``."""
    return Measurement(
        input_domain=input_domain,
        function=function,
        input_metric=input_metric,
        output_measure=max_divergence(),  # label: output-measure
        privacy_map=laplace_map(scale, relaxation),  # label: privacy-map
    )


# proof: end construction
