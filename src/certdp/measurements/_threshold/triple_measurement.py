"""Measurements whose input distances are triples ``(l0, lp, linf)``.

Guarantee (triple_measurement.tex): :func:`exact_triple` returns ``(l0, lp, linf)`` as an
``int`` and two exact ``Fraction``s for a tuple (of any tuple class: its stored items are read,
so a distance class built on ``tuple`` passes) or a list of three numbers with ``l0`` a
non-negative integer and ``lp``, ``linf`` finite and non-negative, and raises
:class:`FailedMapError` naming ``d_in`` for anything else. :class:`TripleMeasurement` is a
:class:`Measurement` whose ``map`` passes ``d_in`` through :func:`exact_triple` (instead of the
scalar check of ``validate_d_in``) before its privacy map.
"""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.core import switches
from certdp.core.conversion import exact_scalar
from certdp.core.errors import FailedMapError, shown, type_mismatch
from certdp.core.exact_type import type_is
from certdp.core.fpenv import require_ieee_environment
from certdp.core.transformation import Measurement

__all__ = ["TripleMeasurement", "exact_triple"]


# proof: begin triple
def exact_triple(d_in) -> tuple[int, Fraction, Fraction]:
    """``(l0, lp, linf)`` exactly; a typed error for anything but three non-negative finite
    numbers with an integer ``l0``."""
    if isinstance(d_in, tuple):
        parts = list(tuple.__iter__(d_in))  # the stored items, whatever a subclass overrides
    else:
        parts = list(d_in) if type(d_in) is list else None  # label: stored-parts
    if parts is None or len(parts) != 3:  # label: triple-shape
        raise type_mismatch(FailedMapError)(
            f"must be a triple (l0, lp, linf), got {shown(d_in)}", parameter="d_in"
        )
    l0, lp, linf = (exact_scalar(part, "d_in", FailedMapError) for part in parts)  # label: parts
    if type(l0) is not int or l0 < 0:  # label: l0-check
        raise FailedMapError(
            f"l0 must be a non-negative integer, got {shown(l0)}", parameter="d_in"
        )
    for name, part in (("lp", lp), ("linf", linf)):
        if not type_is(part, int, float, Fraction):  # label: part-type
            raise type_mismatch(FailedMapError)(
                f"{name} must be a number, got {shown(part)}", parameter="d_in"
            )
        if type(part) is float and not math.isfinite(part):  # label: part-finite
            raise FailedMapError(f"{name} must be finite, got {shown(part)}", parameter="d_in")
        if part < 0:  # label: part-negative
            raise FailedMapError(
                f"{name} must be non-negative, got {shown(part)}", parameter="d_in"
            )
    return l0, Fraction(lp), Fraction(linf)  # label: triple


class TripleMeasurement(Measurement):
    """A measurement whose ``d_in`` is a triple ``(l0, lp, linf)``."""

    def map(self, d_in):
        require_ieee_environment()  # label: triple-environment
        d_in = exact_triple(d_in)  # label: triple-validate
        d_out = self._map(d_in)  # label: triple-apply
        if switches.contracts.enabled and self.postcondition is not None:
            self.postcondition.check_map(self, d_in, d_out)
        return d_out


# proof: end triple
