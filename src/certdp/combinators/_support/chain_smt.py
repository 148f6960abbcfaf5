"""Shared pieces of the chaining SMT models: stub stages with exact maps, the distances at
which the real chains are evaluated, and the exact comparison of a map's value."""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from certdp.contracts.smt_code import F64_SAMPLES, exact

__all__ = ["D_INS", "STAGE_MAPS", "stub_transformation", "below", "refused"]

#: The input distances at which the real chains are evaluated: the f64 samples (0 to +inf),
#: and exact integers and Fractions.
D_INS = (*F64_SAMPLES, 0, 1, 10**400, Fraction(1, 3))


def _halve(d):
    return d if d == math.inf else Fraction(d) / 2


def _plus_one(d):
    return d if d == math.inf else Fraction(d) + 1


def _third(d):
    return d if d == math.inf else Fraction(d) / 3


def _negative(d):
    return -1.0


def _nan(d):
    return math.nan


#: Stage maps by name: exact, so the composed bound is known exactly; ``negative`` and ``nan``
#: return what no valid map returns (the chain must then refuse, never pass the value on).
STAGE_MAPS = {"halve": _halve, "plus one": _plus_one, "third": _third,
              "negative": _negative, "nan": _nan}  # fmt: skip


def stub_transformation(stability_map):
    """A transformation on f64 atoms (absolute distance) whose map is ``stability_map``."""
    from certdp.core.domains import atom_domain
    from certdp.core.metrics import absolute_distance
    from certdp.core.transformation import Transformation

    space = atom_domain(T="f64", nan=False), absolute_distance(T="f64")
    return Transformation(space[0], space[0], lambda x: x, space[1], space[1], stability_map)


def below(value, bound) -> z3.BoolRef:
    """Satisfiable exactly when ``value`` is not a number, is NaN, or is below ``bound``
    (exact; ``+inf`` compared as itself)."""
    if type(value) not in (int, float, Fraction) or value != value:
        return z3.BoolVal(True)
    if value == math.inf:
        return z3.BoolVal(False)
    if bound == math.inf or value == -math.inf:
        return z3.BoolVal(True)
    return exact(value) < exact(bound)


def refused(call) -> tuple[bool, object]:
    """``(True, None)`` if ``call()`` raises a ``DPError``; else ``(False, value)``."""
    from certdp.core.errors import DPError

    try:
        return False, call()
    except DPError:
        return True, None
