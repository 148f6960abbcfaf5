"""OpenDP 0.16's type strings for introspection: ``metric.type`` and ``domain.carrier_type``.

Not proven and used by no constructor: they only name types, as OpenDP prints them
(``"SymmetricDistance"``, ``"L01InfDistance<AbsoluteDistance<i32>>"``, ``"Vec<i32>"``,
``"HashMap<String, i32>"``).  Importing this module (``certdp.core`` does) attaches the two
read-only properties to every metric and domain.  NumPy array domains (defined in Python, as
OpenDP defines them) are named ``"ExtrinsicObject"``, as OpenDP names them; a metric or domain it
cannot name raises :class:`MetricMismatchError` / :class:`UnnamedDomainError`, which is also an
``AttributeError`` so that ``hasattr`` and ``getattr(domain, "carrier_type", None)`` work.
"""

from __future__ import annotations

from .change_metrics import ChangeOneDistance, DiscreteDistance, HammingDistance
from .domains import AtomDomain, Domain, VectorDomain
from .errors import DomainMismatchError, MetricMismatchError
from .exact_type import type_is
from .map_domain import MapDomain
from .metrics import (
    AbsoluteDistance,
    InsertDeleteDistance,
    L1Distance,
    L2Distance,
    Metric,
    SymmetricDistance,
)
from .option_domain import OptionDomain
from .partition_metrics import L0PInfDistance, LInfDistance

__all__ = ["metric_type", "carrier_type", "UnnamedDomainError"]


class UnnamedDomainError(DomainMismatchError, AttributeError):
    """A domain with no OpenDP carrier type name."""


#: OpenDP prints these carrier types with their Rust path inside ``Option<...>`` (checked with
#: OpenDP 0.16: ``Option<alloc::string::String>`` but ``Vec<String>``, ``HashMap<String, i32>``).
_PATH_IN_OPTION = {"String": "alloc::string::String"}

_PLAIN = (
    SymmetricDistance,
    InsertDeleteDistance,
    ChangeOneDistance,
    HammingDistance,
    DiscreteDistance,
)


def metric_type(metric) -> str:
    """The type of ``metric`` as OpenDP 0.16 prints ``metric.type``."""
    kind = type(metric)
    if type_is(metric, *_PLAIN):
        return kind.__name__
    if type_is(metric, AbsoluteDistance, L1Distance, L2Distance):
        return f"{kind.__name__}<{metric.T.name}>"
    if kind is LInfDistance:
        return f"opendp::metrics::LInfDistance<{metric.T.name}>"
    if kind is L0PInfDistance:
        return f"L0{metric.p}InfDistance<{metric_type(metric.inner)}>"
    raise MetricMismatchError(f"has no OpenDP type name: {metric!r}", parameter="metric")


def carrier_type(domain) -> str:
    """The carrier type of ``domain`` as OpenDP 0.16 prints ``domain.carrier_type``."""
    kind = type(domain)
    if kind is AtomDomain:
        return domain.T.name
    if kind is VectorDomain:
        return f"Vec<{carrier_type(domain.element_domain)}>"
    if kind is OptionDomain:
        inner = carrier_type(domain.element_domain)
        return f"core::option::Option<{_PATH_IN_OPTION.get(inner, inner)}>"
    if kind is MapDomain:
        return f"HashMap<{carrier_type(domain.key_domain)}, {carrier_type(domain.value_domain)}>"
    if str(kind.__module__).startswith("certdp.numpy."):
        return "ExtrinsicObject"  # OpenDP's NumPy domains are extrinsic (Python-defined)
    raise UnnamedDomainError(f"has no OpenDP carrier type name: {domain!r}", parameter="domain")


Metric.type = property(metric_type, doc="The metric's type, as OpenDP 0.16 prints it.")
Domain.carrier_type = property(carrier_type, doc="The carrier type, as OpenDP 0.16 prints it.")
