"""``make_geometric``: OpenDP's name for the Laplace mechanism on integers.

Guarantee (make_geometric.tex): over an integer atom domain (or a vector of integer atoms)
without ``bounds`` it returns ``make_laplace(input_domain, input_metric, scale)``, the exact
discrete Laplace mechanism; with ``bounds = (L, U)`` (integers of the carrier type, ``L <=
U``) every value is clamped to ``[L, U]``, receives that same noise and is clamped to ``[L, U]``
again. Either way the privacy map is make_laplace's, ``d_in -> d_in / scale`` rounded up, valid
for the max-divergence. At scale 0 OpenDP 0.16 ignores ``bounds`` (it releases the input);
certdp still clamps. OpenDP samples within bounds in constant time; certdp's sampler is the
same exact sampler with or without them (it does not hide the time a draw takes).
"""

from __future__ import annotations

from certdp.contracts import certified
from certdp.core.domains import AtomDomain, VectorDomain, atom_domain, vector_domain
from certdp.core.errors import MakeMeasurementError, shown
from certdp.core.exact_type import type_is
from certdp.core.measure_argument import measure_requested
from certdp.core.measures import MaxDivergence
from certdp.core.partial import partial_constructor
from certdp.core.transformation import Measurement
from certdp.measurements.laplace import make_laplace

__all__ = ["make_geometric", "then_geometric"]


# proof: begin constructor
def max_divergence_requested(MO) -> bool:
    """Is ``MO`` the max-divergence (its name, its class or an instance)?"""
    return measure_requested(MO, MaxDivergence(), "MaxDivergence")


def integer_bounds(bounds, T):
    """``bounds`` as ``(L, U)``, Python integers of ``T`` with ``L <= U``; a typed error
    otherwise."""
    if not type_is(bounds, tuple, list) or len(bounds) != 2:  # label: bounds-shape
        raise MakeMeasurementError(
            f"must be a pair (lower, upper), got {shown(bounds)}", parameter="bounds"
        )
    lower, upper = bounds
    for value in (lower, upper):
        if type(value) is not int or not T.min <= value <= T.max:  # label: bounds-type
            raise MakeMeasurementError(
                f"must be integers of {T}, got {shown(bounds)}", parameter="bounds"
            )
    if lower > upper:  # label: bounds-order
        raise MakeMeasurementError("lower may not be greater than upper", parameter="bounds")
    return lower, upper


@certified
def make_geometric(
    input_domain, input_metric, scale, bounds=None, MO="MaxDivergence"
) -> Measurement:
    """Exact discrete Laplace noise on integers (within ``bounds`` if given)."""
    if not max_divergence_requested(MO):  # label: measure-check
        raise MakeMeasurementError(
            f"must be MaxDivergence (the only output measure supported), got {shown(MO)}",
            parameter="MO",
        )
    vector = isinstance(input_domain, VectorDomain)
    atom = input_domain.element_domain if vector else input_domain
    if type(atom) is not AtomDomain or not atom.T.is_integer:  # label: integer-check
        raise MakeMeasurementError(
            "must be atom_domain(T=<integer type>) or vector_domain of one (the geometric "
            f"mechanism has integer support), got {shown(input_domain)}",
            parameter="input_domain",
        )
    if bounds is None:
        return make_laplace(input_domain, input_metric, scale)  # label: unbounded
    lower, upper = integer_bounds(bounds, atom.T)  # label: bounds
    plain = atom_domain(T=atom.T)  # label: plain-atom
    if vector:
        plain = vector_domain(plain, size=input_domain.size)  # label: plain-vector
    inner = make_laplace(plain, input_metric, scale)  # label: inner

    def clamp(value: int) -> int:
        return min(max(value, lower), upper)  # label: clamp

    def function(x):
        if vector:
            return [clamp(y) for y in inner.function([clamp(v) for v in x])]  # label: vector
        return clamp(inner.function(clamp(x)))  # label: atom

    return Measurement(
        input_domain=input_domain,
        function=function,
        input_metric=input_metric,
        output_measure=inner.output_measure,  # label: output-measure
        privacy_map=inner.map,  # label: privacy-map
    )


# proof: end constructor


then_geometric = partial_constructor(make_geometric)
