"""Contract support for the float branch of the threshold measurements: the preconditions of
float_release.tex and the grid view of a float distance, written from the lemma (not calling
the code under test), so that the contracts check the postcondition of the float case
through the closed form of the integer case."""

from __future__ import annotations

import math
from fractions import Fraction

from certdp.core.domains import AtomDomain
from certdp.core.exact_type import type_is
from certdp.core.map_domain import MapDomain
from certdp.numeric import is_representable

__all__ = ["float_case", "float_domain_ok", "float_k_ok", "float_threshold_ok", "grid_view"]

#: The exponent of the smallest subnormal of each float type, the default ``k``.
K_BOUNDS = {"f64": (-1074, 1023), "f32": (-149, 127)}


def float_case(a) -> bool:
    """Do the arguments take the float branch (a map domain of float values)?"""
    domain = a.input_domain
    return (
        isinstance(domain, MapDomain)
        and type(domain.value_domain) is AtomDomain
        and domain.value_domain.T.is_float
    )


def float_domain_ok(a) -> bool:
    return float_case(a) and not a.input_domain.value_domain.nan


def float_k_ok(a) -> bool:
    low, high = K_BOUNDS[a.input_domain.value_domain.T.name]
    return a.k is None or (type(a.k) is int and low <= a.k <= high)


def float_threshold_ok(a) -> bool:
    T = a.input_domain.value_domain.T
    return (
        type_is(a.threshold, int, float)
        and is_representable(a.threshold, T.name)
        and a.threshold >= 0
    )


def grid_view(a, d_in, p: int):
    """``(grid scale, grid threshold, grid distance)`` for the float arguments ``a`` at the
    exact triple ``d_in``, or ``None`` where the map must raise (``linf > threshold``). The
    grid ``lp`` uses a lower bound of ``l0^(1/p)``: the bound checked is then at most the
    proof's, which still refutes any map below it."""
    l0, lp, linf = d_in
    if Fraction(linf) > Fraction(a.threshold):
        return None
    low = K_BOUNDS[a.input_domain.value_domain.T.name][0]
    k = low if a.k is None else a.k
    unit = Fraction(2) ** k
    relaxation = unit - Fraction(2) ** low
    root = Fraction(l0) if p == 1 else Fraction(math.isqrt(l0 << 128), 1 << 64)
    index = math.floor(Fraction(a.threshold) / unit + Fraction(1, 2))
    grid = (l0, (Fraction(lp) + relaxation * root) / unit, (Fraction(linf) + relaxation) / unit)
    return Fraction(a.scale) / unit, index, grid
