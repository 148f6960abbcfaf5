"""SMT model of ``make_fixed_approxDP_to_approxDP``'s privacy map, bound to the code.

The map turns the inner pair ``(epsilon0, delta0)`` into the profile ``e -> delta0`` for ``e >=
epsilon0`` and ``e -> 1`` below.  The profile is valid exactly when its value at every ``e`` is
at least the smallest delta the pair implies there: ``delta0`` for ``e >= epsilon0`` (an
(epsilon0, delta0)-close pair is (e, delta0)-close) and ``min(1, delta0)`` below (nothing
smaller follows from the pair alone: the pair may be exactly (e', delta0)-close only at
``e' = epsilon0``, and any pair is (e, 1)-close).

Obligations bound to the code: for each inner pair of :data:`PAIRS` (epsilon0 and delta0
from the f64 samples of ``F64_SAMPLES``, 0 to +inf, and exact ints and Fractions), the real
constructor is built over an inner measurement whose map returns the pair, its map is called,
and the profile it returns is evaluated by its own ``delta`` at every ``e`` of :data:`POINTS`
(the f64 samples, each ``epsilon0`` and its neighbouring floats, and exact rationals just
above and below it).  A case is satisfiable exactly when a value is NaN, not a number, or below
the smallest valid delta there (compared as exact rationals).
"""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import F64_MAX, F64_SAMPLES, Scope, exact, stub_measurement

__all__ = [
    "PAIRS",
    "points_for",
    "code_profile",
    "code_instance",
    "obligations",
    "MODELLED",
    "SCOPE",
]

_NAME = "make_fixed_approxDP_to_approxDP"

_EPSILONS = (0.0, 5e-324, 1e-300, 0.5, 1.0, 5.22153444453017, 1e300, F64_MAX, math.inf,
             Fraction(1, 3), 7)  # fmt: skip
_DELTAS = (0.0, 5e-324, 1e-9, 1e-6, 0.5, 1.0, Fraction(1, 10**7), 1)
PAIRS = tuple((epsilon, delta) for epsilon in _EPSILONS for delta in _DELTAS)


def points_for(epsilon0) -> list:
    """Where the profile is read: the f64 samples, and at and around ``epsilon0``."""
    near = [epsilon0]
    as_float = float(epsilon0)
    if math.isfinite(as_float):
        near += [math.nextafter(as_float, -math.inf), math.nextafter(as_float, math.inf)]
        near += [Fraction(epsilon0) - Fraction(1, 10**30), Fraction(epsilon0) + Fraction(1, 10**30)]
    return [p for p in [*F64_SAMPLES, *near] if p == p and p >= 0]


def code_profile(epsilon0, delta0):
    """The real constructor over a measurement whose map returns the pair: its profile at
    ``d_in = 1``."""
    from certdp.core.measures import approximate, max_divergence

    from .make_fixed_approxDP_to_approxDP import make_fixed_approxDP_to_approxDP

    inner = stub_measurement((epsilon0, delta0), approximate(max_divergence()))
    return make_fixed_approxDP_to_approxDP(inner).map(1)


def _below(value, smallest) -> z3.BoolRef:
    if type(value) not in (int, float, Fraction) or value != value:
        return z3.BoolVal(True)
    if value == math.inf:
        return z3.BoolVal(False)
    if value == -math.inf:
        return z3.BoolVal(True)
    return exact(value) < exact(smallest)


def code_instance(index: int, profile_of=None) -> Obligation:
    """The real map over the inner pair ``PAIRS[index]``; ``profile_of`` replaces
    :func:`code_profile` (for the tests)."""
    epsilon0, delta0 = PAIRS[index]

    def violation():
        profile = (profile_of or code_profile)(epsilon0, delta0)
        cases = []
        for e in points_for(epsilon0):
            value = profile.delta(e)
            smallest = delta0 if e >= epsilon0 else min(1, delta0)
            example = {"pair": repr((epsilon0, delta0)), "e": repr(e), "code delta": repr(value)}
            cases.append((_below(value, smallest), lambda m, x=example: x))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_fixed_approxDP_to_approxDP over the pair {(epsilon0, delta0)!r}: the "
        "profile's delta at every sampled e (f64 samples, epsilon0 and its neighbours) is a "
        "number >= delta0 where e >= epsilon0 and >= min(1, delta0) below (exact)",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    return [code_instance(index) for index in range(len(PAIRS))]


SCOPE = {
    _NAME: Scope(
        formats=("f64", "real"),
        bound_to_code="the real make_fixed_approxDP_to_approxDP is built over inner measurements "
        "whose maps return each pair (epsilon0, delta0), its own map is called, and the profile "
        "it returns is read by its own delta",
        instances=f"{len(PAIRS)} pairs (epsilon0 from 0 to +inf, delta0 from 0 to 1; f64, int, "
        "Fraction) x the f64 samples and the points at and around epsilon0",
        bit_precise=(
            "at the instances: each value is compared exactly with the smallest valid delta there",
        ),  # fmt: skip
        assumed=("the inner measurement's map is valid (its own theorem)",),
    )
}


MODELLED = {
    _NAME: [
        "combinators/fixed_approxDP_to_approxDP/make_fixed_approxDP_to_approxDP.py",
        "core/measures.py",
    ]
}
