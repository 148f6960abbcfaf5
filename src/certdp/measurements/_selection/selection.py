"""The steps the selection constructors share: checking their arguments, the privacy map and
the release function.

Guarantee (selection.tex): :func:`selection_arguments` returns ``(T, monotonic, scale, noise)``
when ``input_domain`` is a vector domain of atoms of an integer type or of NaN-free floats,
``input_metric`` is ``linf_distance(T)`` of the same type, ``output_measure`` is the
max-divergence (``noise = "exponential"``) or the zero-concentrated divergence
(``noise = "gumbel"``), ``k`` is an integer ``>= 1`` (at most the domain's size, when fixed),
``scale`` a finite number ``>= 0`` and ``negate`` a bool; else it raises
:class:`MakeMeasurementError` naming the parameter and the rule.  :func:`selection_map` is
``d_in -> k R / scale`` (max-divergence) or ``k (R / scale)^2 / 8`` (zCDP), ``R = d_in``
when ``monotonic`` and ``2 d_in`` otherwise, rounded up.  :func:`selection_function` releases
``min(k, n)`` indices chosen in peeled rounds among the indices not yet chosen (the sampler of
``samplers/noisy_top_k.tex``): one round of permute-and-flip each under the max-divergence (for
``k = 1`` the noisy maximum under exponential noise; for ``k >= 2`` NOT the top k of one
exponentially noised vector), one round of the exponential mechanism each under zCDP (the top
k under Gumbel noise), largest scores favoured (``negate``: smallest); at ``scale = 0`` the
exact ranking, ties to the larger index.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from certdp.core.conversion import NUMPY_INTEGER_TYPES
from certdp.core.domains import AtomDomain, VectorDomain
from certdp.core.errors import MakeMeasurementError, shown, type_mismatch
from certdp.core.exact_type import type_is
from certdp.core.measures import MaxDivergence, ZeroConcentratedDivergence
from certdp.core.partition_metrics import LInfDistance
from certdp.core.types import CarrierType
from certdp.measurements._laplace.parameters import exact_scale
from certdp.measurements._laplace.rounded_map import rounded_up_map
from certdp.samplers.noisy_top_k import sample_noisy_top_k

__all__ = ["selection_arguments", "selection_function", "selection_map"]


# proof: begin selection
def _is_int(value) -> bool:
    # by exact type: a bool, a subclass of int or of a NumPy integer, or an object naming int
    # as its __class__ (whose comparisons and products could answer anything) is no integer
    return type_is(value, int, *NUMPY_INTEGER_TYPES)  # label: is-int


def selection_arguments(input_domain, input_metric, output_measure, k, scale, negate):
    """``(T, monotonic, scale, noise)`` of a selection measurement; a typed error naming the
    parameter and its rule for arguments outside the constructors' preconditions."""
    atom = input_domain.element_domain if type_is(input_domain, VectorDomain) else None
    T = atom.T if type_is(atom, AtomDomain) else None
    if not type_is(T, CarrierType) or not (T.is_integer or T.is_float):  # label: domain-shape
        raise MakeMeasurementError(
            f"must be vector_domain(atom_domain(T=<int or float type>)), got {shown(input_domain)}",
            parameter="input_domain",
        )
    if T.is_float and atom.nan:  # label: no-nan
        raise MakeMeasurementError(
            "elements must exclude NaN: use atom_domain(T=..., nan=False)",
            parameter="input_domain",
        )
    if not type_is(input_metric, LInfDistance) or input_metric.T != T:  # label: metric-check
        raise MakeMeasurementError(
            f"must be linf_distance(T={T}), got {shown(input_metric)}", parameter="input_metric"
        )
    if type_is(output_measure, MaxDivergence):  # label: pure
        noise = "exponential"
    elif type_is(output_measure, ZeroConcentratedDivergence):  # label: zcdp
        noise = "gumbel"
    else:
        raise MakeMeasurementError(  # label: measure-check
            "must be max_divergence() or zero_concentrated_divergence(), "
            f"got {shown(output_measure)}",
            parameter="output_measure",
        )
    if not _is_int(k):  # label: k-type
        raise type_mismatch(MakeMeasurementError)(
            f"must be an integer, got {shown(k)}", parameter="k"
        )
    if k < 1:  # label: k-positive
        raise MakeMeasurementError(f"must be at least 1, got {k}", parameter="k")
    size = input_domain.size
    if size is not None and k > size:  # label: k-size
        raise MakeMeasurementError(
            f"({k}) must not exceed the number of candidates ({size})", parameter="k"
        )
    scale = exact_scale(scale)  # label: scale-check
    if type(negate) is not bool:  # label: negate-check
        raise type_mismatch(MakeMeasurementError)(
            f"must be True or False, got {shown(negate)}", parameter="negate"
        )
    return T, input_metric.monotonic, scale, noise


def selection_map(monotonic: bool, scale: Fraction, k: int, noise: str) -> Callable:
    """The privacy map ``d_in -> k R / scale`` (exponential noise, max-divergence) or
    ``k (R / scale)^2 / 8`` (Gumbel noise, zCDP), ``R = d_in`` or ``2 d_in``, rounded up."""
    factor = 1 if monotonic else 2  # label: range-factor

    def bound(distance: Fraction) -> Fraction:
        loss = factor * distance / scale  # label: loss
        if noise == "exponential":
            return k * loss  # label: pure-bound
        return k * loss * loss / 8  # label: zcdp-bound

    return rounded_up_map(scale, Fraction(0), bound)  # label: rounded


def selection_function(T: CarrierType, scale: Fraction, k: int, negate: bool, noise: str):
    """The release: the indices of the ``min(k, n)`` noisy largest (``negate``: smallest)
    scores, in decreasing order of the noisy value."""
    lower, upper = T.min, T.max

    def function(x) -> list[int]:
        scores = [min(max(x_i, lower), upper) for x_i in x]  # label: clamp
        count = min(k, len(scores))  # label: count
        if count == 0:
            return []  # label: empty
        if scale == 0:
            sign = -1 if negate else 1
            ranked = sorted(range(len(scores)), key=lambda i: (sign * scores[i], i))
            return ranked[::-1][:count]  # label: exact-ranking
        return sample_noisy_top_k(scores, scale, count, noise, negate=negate)  # label: sample

    return function


# proof: end selection
