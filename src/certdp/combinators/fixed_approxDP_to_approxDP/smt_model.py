"""SMT model of ``make_fixed_approxDP_to_approxDP``'s privacy map, bound to the code.

The map turns the inner pair ``(epsilon0, delta0)`` into the profile ``e -> delta0`` for ``e >=
epsilon0`` and ``e -> 1`` below.  A profile built from the pair alone is valid exactly when its
value at every ``e`` is at least the largest delta at ``e`` of any (epsilon0, delta0)-close
pair of distributions: ``delta0`` for ``e >= epsilon0``, and below ``epsilon0`` that of the
(epsilon0, delta0) randomised response, ``delta0 + (1 - delta0) (1 - t) / (1 + s)`` with
``t = exp(e - epsilon0)`` and ``s = exp(-epsilon0)`` (Kairouz, Oh and Viswanath 2015), capped at
1.  So dropping the step (``delta0`` below ``epsilon0``) is refuted.

Obligations bound to the code: for each inner pair of :data:`PAIRS` (epsilon0 and delta0
from 0 to +inf and 0 to 1, as f64 values, ints and Fractions), the real constructor is built
over inner measurements whose maps are ``d_in -> (epsilon0 * d_in, delta0)`` and ``d_in ->
(epsilon0 * d_in**2, min(1, delta0 * d_in))`` (exact; :data:`PAIR_FAMILIES`,
:mod:`..._support.conversion_smt`), its map is called at every ``d_in`` of
``CONVERSION_D_INS`` (1, 2, 3, 7, 10, 100, 0.5, 1/3, 1000, 10**400), and the profile it returns
is evaluated by its own ``delta`` at every ``e`` of :func:`points_for` of the inner pair at that
same ``d_in`` (the f64 samples, its epsilon and the neighbouring floats, and exact rationals
just above and below it).  So a conversion that, at one of these ``d_in``, reads a smaller
epsilon or delta than its own ``d_in`` gives (another distance, the delta at ``d_in = 1``, the
value at 1 scaled linearly) is refuted where that changes the bound at the sampled ``e``; a
misreading only at other ``d_in`` is not checked.  Below, ``(epsilon0, delta0)`` is the inner
pair at the ``d_in`` of the case.  A case
is satisfiable exactly when a value is NaN, not a number, or below the bound above, compared in
exact rational arithmetic with ``t`` and ``s`` real unknowns constrained to an enclosure of the
exponentials (:func:`exp_enclosure`: the proven rational series enclosure of
``certdp.numeric.elementary`` at 200 bits, or ``[0, 2**-2000]`` below ``exp(-2000)``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from certdp.combinators._support.conversion_smt import (
    CONVERSION_D_INS,
    d_in_stub_measurement,
    grown_delta,
    linear,
    quadratic,
    raised_case,
    shown_d_ins,
)
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import F64_MAX, F64_SAMPLES, Scope, exact, stub_measurement
from certdp.core.exact_type import type_is
from certdp.numeric.elementary import _exp_enclosure

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
    if epsilon0 != math.inf:  # an exact epsilon0 may lie beyond the f64 range
        near += [Fraction(epsilon0) - Fraction(1, 10**30), Fraction(epsilon0) + Fraction(1, 10**30)]
        if epsilon0 <= F64_MAX:
            as_float = float(epsilon0)
            near += [math.nextafter(as_float, -math.inf), math.nextafter(as_float, math.inf)]
    return [p for p in [*F64_SAMPLES, *near] if p == p and p >= 0]


def code_profile(epsilon0, delta0):
    """The real constructor over a measurement whose map returns the pair: its profile at
    ``d_in = 1``."""
    from certdp.core.measures import approximate, max_divergence

    from .make_fixed_approxDP_to_approxDP import make_fixed_approxDP_to_approxDP

    inner = stub_measurement((epsilon0, delta0), approximate(max_divergence()))
    return make_fixed_approxDP_to_approxDP(inner).map(1)


def _fixed(delta, d_in):
    return delta


#: The inner pair families, by the name the claims print: ``(epsilon0 d, delta0)``, and
#: ``(epsilon0 d**2, min(1, delta0 d))`` whose delta grows with ``d`` (as under group privacy).
PAIR_FAMILIES = (
    ("(epsilon0 * d_in, delta0)", linear, _fixed),
    ("(epsilon0 * d_in**2, min(1, delta0 * d_in))", quadratic, grown_delta),
)


def code_profiles(epsilon0, delta0, d_in=1, family=PAIR_FAMILIES[0]) -> tuple:
    """The profiles of the map (``map`` runs the evaluator) and of the constructor's privacy-map
    closure called directly (the code the proof cites), both at ``d_in``, of the real
    constructor over a measurement whose map is ``d -> family's pair at d``."""
    from certdp.combinators._support.chain_smt import both_values
    from certdp.core.measures import approximate, max_divergence

    from .make_fixed_approxDP_to_approxDP import make_fixed_approxDP_to_approxDP

    _, of_epsilon, of_delta = family

    def pair_at(d):
        return of_epsilon(epsilon0, d), of_delta(delta0, d)

    inner = d_in_stub_measurement(pair_at, approximate(max_divergence()))
    return both_values(make_fixed_approxDP_to_approxDP(inner), d_in)


def exp_enclosure(x) -> tuple[Fraction, Fraction]:
    """Rationals ``lo <= exp(x) <= hi`` for an exact ``x <= 0`` (or ``-inf``), never trusted from
    a floating-point library: the proven series enclosure of ``numeric/elementary.tex`` (exact
    rational arithmetic, 200 bits) rounded outward to multiples of ``2**-3100`` and capped at 1; below ``-2000``, ``[0, 2**-2000]``, which holds
    since ``exp(-2000) = 2**(-2000 / ln 2)`` and ``1 / ln 2 > 1``."""
    if x == -math.inf or x < -2000:
        return Fraction(0), Fraction(1, 2**2000)
    lo, hi = _exp_enclosure(Fraction(x), 200)
    # outward to multiples of 2**-3100 (exp(-2000) > 2**-2886 keeps >= 214 bits), so that the
    # numbers handed to z3 stay short
    scale = 2**3100
    lo = Fraction((lo.numerator * scale) // lo.denominator, scale)
    hi = Fraction(-((-hi.numerator * scale) // hi.denominator), scale)
    return lo, min(Fraction(1), hi)


def _is_number(value) -> bool:
    return type_is(value, int, float, Fraction) and value == value


def _below(value, e, epsilon0, delta0) -> z3.BoolRef:
    """Satisfiable exactly when ``value`` is not a number or is below the largest delta at ``e``
    of an (epsilon0, delta0)-close pair (see the module docstring)."""
    if not _is_number(value):
        return z3.BoolVal(True)
    if value == math.inf:
        return z3.BoolVal(False)
    if value == -math.inf:
        return z3.BoolVal(True)
    if e >= epsilon0:
        return exact(value) < exact(delta0)
    if delta0 >= 1:
        return exact(value) < 1
    difference = Fraction(e) - Fraction(epsilon0) if epsilon0 != math.inf else -math.inf
    t_range = exp_enclosure(difference)
    s_range = exp_enclosure(-Fraction(epsilon0) if epsilon0 != math.inf else -math.inf)
    t, s = z3.Real("t"), z3.Real("s")
    V, D = exact(value), exact(delta0)
    return z3.And(
        exact(t_range[0]) <= t, t <= exact(t_range[1]),
        exact(s_range[0]) <= s, s <= exact(s_range[1]),
        V < 1, V * (1 + s) < D * (1 + s) + (1 - D) * (1 - t),
    )  # fmt: skip


def code_instance(index: int, profile_of=None) -> Obligation:
    """The real map over the inner pair ``PAIRS[index]``; ``profile_of`` replaces
    :func:`code_profile` (for the tests)."""
    epsilon0, delta0 = PAIRS[index]

    def violation():
        cases = []
        for family in PAIR_FAMILIES:
            shown, of_epsilon, of_delta = family
            for d_in in CONVERSION_D_INS:
                at, delta_at = of_epsilon(epsilon0, d_in), of_delta(delta0, d_in)
                where = {"pair": repr((epsilon0, delta0)), "inner map": shown, "d_in": repr(d_in)}
                try:
                    profiles = (
                        (profile_of(at, delta_at),)
                        if profile_of
                        else code_profiles(epsilon0, delta0, d_in, family)
                    )
                except Exception as error:  # a map that raises here is refuted
                    cases.append(raised_case(error, where))
                    continue
                for path, profile in zip(("map", "closure"), profiles):
                    for e in points_for(at):
                        try:
                            value = profile.delta(e)
                        except Exception as error:  # a profile that raises here is refuted
                            cases.append(raised_case(error, {**where, "path": path, "e": repr(e)}))
                            continue
                        example = {**where, "path": path, "e": repr(e),
                                   "code delta": repr(value)}  # fmt: skip
                        below = _below(value, e, at, delta_at)
                        cases.append((below, lambda m, x=example: x))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_fixed_approxDP_to_approxDP over the pair {(epsilon0, delta0)!r} "
        f"(inner maps d_in -> {PAIR_FAMILIES[0][0]} and d_in -> {PAIR_FAMILIES[1][0]}), at "
        f"every d_in of {shown_d_ins()}: the "
        "profile's (from the map and from the privacy-map closure called directly) delta at "
        "every sampled e (f64 samples, the inner epsilon at that d_in and its neighbours) is a "
        "number >= the inner delta at that d_in where e >= that epsilon and, below, >= the delta "
        "at e of the randomised response of the inner pair at that d_in (exact; exp enclosed by the proven rational "
        "series of numeric/elementary)",
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
        "whose maps are d_in -> (epsilon0 * d_in, delta0) and d_in -> (epsilon0 * d_in**2, "
        "min(1, delta0 * d_in)) for each pair, its map (through the evaluator) and its "
        "privacy-map closure (called directly) are called at each d_in, and the profile it "
        "returns is read by its own delta and judged against the inner pair of that family at "
        "that same d_in: a conversion that, at one of the checked d_in, reads a smaller epsilon "
        "or delta than its own d_in gives is refuted where that lowers the bound at a sampled e; "
        "a misreading at other d_in only is not checked; a call that raises is a counterexample",
        instances=f"{len(PAIRS)} pairs (epsilon0 from 0 to +inf, delta0 from 0 to 1; f64, int, "
        f"Fraction) x 2 inner families x every d_in of {shown_d_ins()} x 2 (map and closure) x "
        "the f64 samples and the points at and around the inner epsilon at that d_in",
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
        "combinators/_support/conversion_smt.py",
        "combinators/_conversion/inner_values.py",
    ]
}
