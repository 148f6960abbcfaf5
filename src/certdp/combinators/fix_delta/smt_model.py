"""SMT model of ``make_fix_delta``'s privacy map, and the bounded checks of what it relies on.

Obligations bound to the code (``code``), one per family of inner privacy profiles: the real
``make_fix_delta`` is built over an inner measurement whose map returns, at ``d_in``, the
family's profile for ``d_in`` (it depends on ``d_in``: rho grows as ``d_in`` or ``d_in**2``, the
scale of the exponential and the steps grow with it, one step's low value grows too;
:mod:`..._support.conversion_smt`), at every delta of :data:`DELTAS` (0, the smallest
subnormal, tiny, small, 1/2, near 1, 1), and its map is called at every ``d_in`` of
``CONVERSION_D_INS`` (1, 2, 3, 7, 10, 100, 0.5, 1/3, 1000, 10**400); each case is judged
against the profile of that same ``d_in``.  So a conversion that, at one of these ``d_in``,
reads a profile lower than that of its own ``d_in`` (another distance, or the value at
``d_in = 1`` scaled linearly) is refuted where the answer it then returns is too small; a
misreading only at other ``d_in`` is not checked.  A case is satisfiable
exactly when the map returns a pair ``(epsilon, delta')``
with ``delta'`` other than the delta asked for, ``epsilon`` NaN or negative, or ``epsilon``
finite and the inner profile, evaluated by its own code at that ``epsilon``, above ``delta``
(compared as exact rationals); a map that refuses (``FailedMapError``) claims nothing.  The
inner profiles: the real ``make_zCDP_to_approxDP`` (the code's ``cdp_delta``) at rho from tiny
to huge and ``+inf``, and curves ``epsilon -> exp(-r epsilon)`` and steps, which reach every
branch of the search (growth to ``+inf``, an answer at 0, at a step).

Under ``Approximate(SmoothedMaxDivergence)`` (:func:`pair_instance`, one obligation per family
of :data:`PAIR_PROFILES`): the real ``make_fix_delta`` is built over inner maps ``d_in ->
(profile at d_in, min(1, fixed d_in))`` for every ``fixed`` of :data:`PAIR_FIXED` and called at
every ``(d_in, delta)``; the pair it returns must keep ``delta`` and have ``epsilon = +inf`` or
``profile(epsilon) + fixed <= delta`` at that ``d_in``, compared as exact rationals (the map
refuses ``delta <= fixed`` with a ``FailedMapError``, which claims nothing).  The families: the
real ``make_zCDP_to_approxDP`` profiles at ``rho d_in**2`` (rho from 1e-10 to ``+inf``), and a
step from 1 to ``RU(delta - fixed)`` at ``epsilon = 1``: the code reads the profile at
``RD(delta - fixed)`` and never takes that step when the difference is not a float, while a map
that rounds the difference up, or forgets ``fixed``, answers ``epsilon = 1`` and is refuted.

The map reads the inner privacy profile at ``delta`` with ``PrivacyProfile.epsilon`` (the
bisection of ``core/measures.py``, proved in core/measures.tex) and then re-checks the answer
(``recheck`` in make_fix_delta.py): it returns ``(epsilon, delta)`` only when ``epsilon`` is
infinite or the profile at ``epsilon`` is ``<= delta``.  Modelled bit for bit, in the format of
its operands (binary64 in the code):

* ``midpoint(lo, hi)``: ``lo + (hi - lo) / 2.0``, each operation rounded to nearest, the
  bisection's step; ``grown(hi)``: ``hi * hi``, its growth step;
* ``returns(epsilon, value, delta)``: whether the map returns rather than raises, given the
  profile's value at ``epsilon``.

Obligations, for every value of the variables (NaN, infinities and signed zeros
included where the precondition allows them):

1. *bisection step*: for ``0 <= lo <= hi < inf``, the midpoint is not NaN and lies in
   ``[lo, hi]``; so each update (``lo = mid`` or ``hi = mid``) keeps ``0 <= lo <= hi < inf``.
   Proved in binary32 and binary16: in binary64 the query exceeds the time budget.
2. *growth*: for ``2 <= hi < inf``, ``hi * hi`` is not NaN and is ``>= hi`` (``+inf`` at most),
   so the growth loop keeps ``hi >= 2`` until it leaves through ``unbounded``.
3. *answer range*: by 1 and 2, every value ``epsilon`` returns (``0.0``, ``lo``, ``hi`` or
   ``+inf``) is in ``[0, +inf]``; the map then returns only when ``epsilon == +inf`` or the
   profile's value at ``epsilon`` is ``<= delta`` (IEEE comparison, NaN refused), for every
   ``delta`` in ``[0, 1]``.

With the profile's guarantee at the points it is evaluated (the inner measurement is
``(epsilon, profile(epsilon))``-DP) and monotonicity in delta, 3 gives the theorem: the pair
returned is valid.  ``tests/prove/test_fix_delta_model.py`` replays the code's bisection and
checks every midpoint and growth step against the model, bit for bit.
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
from certdp.contracts.smt_code import Scope, exact, stub_measurement

__all__ = [
    "midpoint",
    "grown",
    "returns",
    "DELTAS",
    "PROFILES",
    "code_map",
    "code_instance",
    "PAIR_FIXED",
    "PAIR_PROFILES",
    "pair_code_maps",
    "pair_instance",
    "obligations",
    "MODELLED",
    "SCOPE",
]

_NAME = "make_fix_delta"
F64 = z3.Float64()


def midpoint(lo, hi):
    """``lo + (hi - lo) / 2.0`` in the format of ``lo`` (binary64 in the code), each operation
    rounded to nearest."""
    rne = z3.RNE()
    return z3.fpAdd(rne, lo, z3.fpDiv(rne, z3.fpSub(rne, hi, lo), z3.FPVal(2.0, lo.sort())))


def grown(hi):
    """``hi * hi`` in binary64, rounded to nearest."""
    return z3.fpMul(z3.RNE(), hi, hi)


def returns(epsilon, value, delta):
    """Whether the map returns ``(epsilon, delta)``: ``isinf(epsilon)`` or not
    ``not value <= delta`` (make_fix_delta.py, ``recheck``)."""
    return z3.Or(z3.fpIsInf(epsilon), z3.fpLEQ(value, delta))


def _finite_non_negative(x):
    zero = z3.FPVal(0.0, x.sort())
    return z3.And(z3.Not(z3.fpIsNaN(x)), z3.Not(z3.fpIsInf(x)), z3.fpGEQ(x, zero))


#: Formats of the bisection step: the code's binary64 exceeds the solver's budget (three
#: dependent operations with a 53-bit significand: over 120 s), so the same step is proved in
#: binary32 and binary16, whose argument (subtraction of ordered non-negative values, an exact
#: or correctly rounded halving, an addition that cannot pass hi) is the same at every precision.
STEP_FORMATS = {"f32": z3.Float32(), "f16": z3.Float16()}


def _step(midpoint_of=midpoint, fmt: str = "f32") -> Obligation:
    sort = STEP_FORMATS[fmt]
    lo, hi = z3.FP("lo", sort), z3.FP("hi", sort)

    def violation():
        mid = midpoint_of(lo, hi)
        inside = z3.And(_finite_non_negative(lo), _finite_non_negative(hi), z3.fpLEQ(lo, hi))
        bad = z3.Or(z3.fpIsNaN(mid), z3.fpLT(mid, lo), z3.fpGT(mid, hi))

        def decode(m):
            return {"lo": str(m.eval(lo, True)), "hi": str(m.eval(hi, True)),
                    "mid": str(m.eval(mid, True))}  # fmt: skip

        return [(z3.And(inside, bad), decode)]

    return Obligation(
        constructor=_NAME,
        claim=f"bisection step, in {fmt} (the code's f64 step at reduced precision): for every "
        f"{fmt} value 0 <= lo <= hi < inf, lo + (hi - lo)/2 (rounded to nearest) is not NaN "
        "and lies in [lo, hi]",
        format=fmt, size=1, violation=violation,
    )  # fmt: skip


def _growth() -> Obligation:
    hi = z3.FP("hi", F64)

    def violation():
        square = grown(hi)
        inside = z3.And(_finite_non_negative(hi), z3.fpGEQ(hi, z3.FPVal(2.0, F64)))
        bad = z3.Or(z3.fpIsNaN(square), z3.fpLT(square, hi))

        def decode(m):
            return {"hi": str(m.eval(hi, True)), "square": str(m.eval(square, True))}

        return [(z3.And(inside, bad), decode)]

    return Obligation(
        constructor=_NAME,
        claim="growth step: for every binary64 2 <= hi < inf, hi * hi (rounded to nearest) is "
        "not NaN and >= hi",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


def _answer() -> Obligation:
    epsilon, value, delta = z3.FP("epsilon", F64), z3.FP("value", F64), z3.FP("delta", F64)

    def violation():
        zero, one = z3.FPVal(0.0, F64), z3.FPVal(1.0, F64)
        in_range = z3.And(z3.Not(z3.fpIsNaN(epsilon)), z3.fpGEQ(epsilon, zero))
        delta_ok = z3.And(z3.Not(z3.fpIsNaN(delta)), z3.fpGEQ(delta, zero), z3.fpLEQ(delta, one))
        valid = z3.Or(z3.fpIsInf(epsilon), z3.fpLEQ(value, delta))
        bad = z3.Or(z3.fpIsNaN(epsilon), z3.fpLT(epsilon, zero), z3.Not(valid))

        def decode(m):
            return {name: str(m.eval(v, True)) for name, v in
                    (("epsilon", epsilon), ("value", value), ("delta", delta))}  # fmt: skip

        return [(z3.And(in_range, delta_ok, returns(epsilon, value, delta), bad), decode)]

    return Obligation(
        constructor=_NAME,
        claim="answer: for every binary64 epsilon in [0, +inf] (the range steps 1-2 give), every "
        "binary64 profile value (NaN included) and delta in [0, 1], the map returns only when "
        "epsilon = +inf or the profile at epsilon is <= delta",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


#: The deltas at which the real map is called.
DELTAS = (0.0, 5e-324, 1e-300, 1e-6, 0.5, 0.999, 1.0)


def _cdp_profile(rho):
    from certdp.combinators.zCDP_to_approxDP import make_zCDP_to_approxDP
    from certdp.core.measures import zero_concentrated_divergence

    inner = make_zCDP_to_approxDP(stub_measurement(rho, zero_concentrated_divergence()))
    return inner.map(1)


def _curve(function):
    from certdp.core.measures import PrivacyProfile

    return PrivacyProfile(function)


def _exponential(rate):
    return lambda epsilon: math.exp(-rate * epsilon) if epsilon < math.inf else 0.0


def _rate(rate, d_in):
    """``rate / d_in`` as a float (0 when it underflows): the curve ``exp(-rate epsilon / d_in)``
    grows with ``d_in``."""
    return float(Fraction(rate) / Fraction(d_in)) if d_in != 1 else rate


def _step_at(at, low, high, of_at=linear, of_low=None):
    """A step from ``high`` to ``low`` at ``at``; at ``d_in`` the step is at ``of_at(at, d_in)``
    and, with ``of_low``, its low value is ``of_low(low, d_in)``."""

    def family(d_in):
        where = of_at(at, d_in)
        below = of_low(low, d_in) if of_low else low
        return _curve(lambda epsilon: below if epsilon >= where else high)

    return family


#: Inner profile families by name, each a function of ``d_in`` (the name says the profile at
#: ``d_in = 1``): ``cdp rho=...`` are real make_zCDP_to_approxDP profiles at ``rho * d_in``
#: (``... * d_in**2``: at ``rho d_in**2``, a Gaussian's growth), ``exp(-r epsilon)`` becomes
#: ``exp(-r epsilon / d_in)``, a step at ``e`` one at ``e d_in``, and the last step moves to
#: ``d_in**2`` and its low value grows to ``min(1, 1e-9 d_in)``.
PROFILES = {
    **{f"cdp rho={rho!r}": (lambda d_in, rho=rho: _cdp_profile(linear(rho, d_in)))
       for rho in (1e-10, 0.5, 10.0, 1e10, 1e300, math.inf)},
    **{f"cdp rho={rho!r} * d_in**2": (lambda d_in, rho=rho: _cdp_profile(quadratic(rho, d_in)))
       for rho in (1e-10, 0.5, 10.0)},
    "exp(-epsilon)": lambda d_in: _curve(_exponential(_rate(1.0, d_in))),
    "exp(-1e-6 epsilon)": lambda d_in: _curve(_exponential(_rate(1e-6, d_in))),
    "step at 1": _step_at(1.0, 0.0, 1.0),
    "step at 1e300 to 1e-9": _step_at(1e300, 1e-9, 0.5),
    "step at 1 * d_in**2 to 1e-9 * d_in": _step_at(1.0, 1e-9, 1.0, quadratic, grown_delta),
}  # fmt: skip


def code_map(profile, delta):
    """The real ``make_fix_delta`` over a measurement whose map returns ``profile``, its map at
    ``d_in = 1`` (``None`` if it refuses with a ``FailedMapError``)."""
    from certdp.core.errors import FailedMapError
    from certdp.core.measures import smoothed_max_divergence

    from .make_fix_delta import make_fix_delta

    built = make_fix_delta(stub_measurement(profile, smoothed_max_divergence()), delta)
    try:
        return built.map(1)
    except FailedMapError:
        return None


def code_maps(family, delta, d_in=1) -> tuple:
    """The outcome of the map (``map`` runs the evaluator) and of the constructor's privacy-map
    closure called directly (the code make_fix_delta.tex cites), both at ``d_in``, of the real
    ``make_fix_delta`` over a measurement whose map is ``d -> family(d)``."""
    from certdp.core.errors import FailedMapError
    from certdp.core.measures import smoothed_max_divergence

    from .make_fix_delta import make_fix_delta

    built = make_fix_delta(d_in_stub_measurement(family, smoothed_max_divergence()), delta)
    outcomes = []
    for call in (built.map, built._map):
        try:
            outcomes.append(call(d_in))
        except FailedMapError:
            outcomes.append(None)
    return tuple(outcomes)


def _invalid(profile, delta, pair):
    if pair is None:
        return z3.BoolVal(False)
    epsilon, stated = pair
    if stated != delta or not isinstance(epsilon, float) or math.isnan(epsilon) or epsilon < 0:
        return z3.BoolVal(True)
    if math.isinf(epsilon):
        return z3.BoolVal(False)
    return exact(profile.delta(epsilon)) > exact(delta)


def _calls():
    """``(d_in, delta)`` at which the real map is called."""
    return [(d_in, delta) for d_in in CONVERSION_D_INS for delta in DELTAS]


def code_instance(profile_name: str, map_of=None) -> Obligation:
    """The real map over the inner profile family ``PROFILES[profile_name]`` at every
    ``(d_in, delta)`` of :func:`_calls`; ``map_of(profile, delta)`` replaces :func:`code_map`
    (for the tests)."""

    def violation():
        family = PROFILES[profile_name]
        cases = []
        for d_in, delta in _calls():
            profile = family(d_in)
            where = {"profile": profile_name, "d_in": repr(d_in), "delta": repr(delta)}
            try:
                pairs = (map_of(profile, delta),) if map_of else code_maps(family, delta, d_in)
            except Exception as error:  # anything but a FailedMapError refusal is refuted
                cases.append(raised_case(error, where))
                continue
            for path, pair in zip(("map", "closure"), pairs):
                example = {**where, "path": path, "code map": repr(pair)}
                cases.append((_invalid(profile, delta, pair), lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_fix_delta over the profile {profile_name}, at delta in {DELTAS} "
        f"and every d_in of {shown_d_ins()} (the inner profile at d_in scaled with d_in): the pair returned (by the map and by "
        "the privacy-map closure called directly) keeps delta, and its epsilon is +inf or the "
        "inner profile at that same d_in is <= delta there (exact)",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


#: Approximate(SmoothedMaxDivergence): the inner pair's delta at ``d_in = 1`` (at ``d_in`` it is
#: ``min(1, fixed d_in)``, :func:`grown_delta`).
PAIR_FIXED = (0.0, 5e-324, 1.1102230246251565e-16, 1e-7, 0.25)


def _just_above(delta, fixed):
    """The step ``epsilon -> RU(delta - fixed) if epsilon >= 1 else 1``: its low value is the
    profile part the total ``delta`` leaves, rounded up, so a map that reads the profile at
    ``delta - fixed`` rounded up (or at ``delta``) answers ``epsilon = 1``, where the profile
    plus ``fixed`` exceeds ``delta`` whenever the difference is not a float."""
    from certdp.numeric import inf_cast

    low = inf_cast(Fraction(delta) - Fraction(fixed)) if fixed < delta else 0.0
    return _curve(lambda epsilon: low if epsilon >= 1 else 1.0)


#: Inner profile families of the pair obligations, by name: each a function of ``(d_in, delta,
#: fixed)`` (``fixed`` the inner delta at that ``d_in``) giving the profile of the pair.
PAIR_PROFILES = {
    **{f"cdp rho={rho!r} * d_in**2": (
        lambda d_in, delta, fixed, rho=rho: _cdp_profile(quadratic(rho, d_in)))
       for rho in (1e-10, 0.5, 10.0, math.inf)},
    "step at 1 to RU(delta - fixed)": lambda d_in, delta, fixed: _just_above(delta, fixed),
}  # fmt: skip


def pair_code_maps(profile_at, fixed, delta, d_in) -> tuple:
    """The outcome of the map and of the privacy-map closure, at ``d_in``, of the real
    ``make_fix_delta`` at ``delta`` over an Approximate(SmoothedMaxDivergence) measurement whose
    map is ``d -> (profile_at(d), min(1, fixed d))`` (``None`` for a ``FailedMapError``)."""
    from certdp.core.errors import FailedMapError
    from certdp.core.measures import approximate, smoothed_max_divergence

    from .make_fix_delta import make_fix_delta

    def inner_map(d):
        return profile_at(d), grown_delta(fixed, d)

    inner = d_in_stub_measurement(inner_map, approximate(smoothed_max_divergence()))
    built = make_fix_delta(inner, delta)
    outcomes = []
    for call in (built.map, built._map):
        try:
            outcomes.append(call(d_in))
        except FailedMapError:
            outcomes.append(None)
    return tuple(outcomes)


def _invalid_pair(profile, fixed, delta, pair):
    """Satisfiable exactly when the map returned and its pair is not ``(epsilon, delta)`` with
    ``epsilon = +inf`` or ``profile(epsilon) + fixed <= delta`` (exact)."""
    if pair is None:
        return z3.BoolVal(False)
    if type(pair) is not tuple or len(pair) != 2:
        return z3.BoolVal(True)
    epsilon, stated = pair
    if stated != delta or not isinstance(epsilon, float) or math.isnan(epsilon) or epsilon < 0:
        return z3.BoolVal(True)
    if math.isinf(epsilon):
        return z3.BoolVal(False)
    return exact(profile.delta(epsilon)) + exact(fixed) > exact(delta)


def pair_instance(profile_name: str, map_of=None) -> Obligation:
    """The real map over the pair ``(PAIR_PROFILES[profile_name], min(1, fixed d_in))`` for every
    ``fixed`` of PAIR_FIXED, at every ``(d_in, delta)`` of :func:`_calls`; ``map_of(profile,
    fixed, delta, d_in)`` replaces :func:`pair_code_maps` (for the tests)."""

    def violation():
        family = PAIR_PROFILES[profile_name]
        cases = []
        for fixed in PAIR_FIXED:
            for d_in, delta in _calls():
                fixed_at = grown_delta(fixed, d_in)
                profile = family(d_in, delta, fixed_at)
                where = {"profile": profile_name, "fixed": repr(fixed), "d_in": repr(d_in),
                         "delta": repr(delta)}  # fmt: skip

                def profile_at(d, fixed=fixed, delta=delta):
                    return family(d, delta, grown_delta(fixed, d))

                try:
                    pairs = (
                        (map_of(profile, fixed_at, delta, d_in),)
                        if map_of
                        else pair_code_maps(profile_at, fixed, delta, d_in)
                    )
                except Exception as error:  # anything but a FailedMapError refusal is refuted
                    cases.append(raised_case(error, where))
                    continue
                for path, pair in zip(("map", "closure"), pairs):
                    example = {**where, "path": path, "code map": repr(pair)}
                    invalid = _invalid_pair(profile, fixed_at, delta, pair)
                    cases.append((invalid, lambda m, e=example: e))
        return cases

    return Obligation(
        constructor=_NAME,
        claim=f"real make_fix_delta under Approximate(SmoothedMaxDivergence) over the pair "
        f"(profile {profile_name}, min(1, fixed * d_in)), fixed in {PAIR_FIXED}, at delta in "
        f"{DELTAS} and every d_in of {shown_d_ins()}: the pair returned (by the map and by the "
        "privacy-map closure called directly) keeps delta, and its epsilon is +inf or the inner "
        "profile there plus the inner delta, at that same d_in, is <= delta (exact); a "
        "FailedMapError refusal (delta <= the inner delta) claims nothing",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and _NAME not in names:
        return []
    code = [code_instance(name) for name in PROFILES]
    code += [pair_instance(name) for name in PAIR_PROFILES]
    return code + [_step(fmt=fmt) for fmt in STEP_FORMATS] + [_growth(), _answer()]


SCOPE = {
    _NAME: Scope(
        formats=("f64", "f32", "f16"),
        bound_to_code="the real make_fix_delta is built over inner measurements whose maps "
        "return at d_in a profile that depends on d_in (rho * d_in and rho * d_in**2; "
        "exp(-r epsilon / d_in); a step at e * d_in, and one at d_in**2 whose low value grows "
        "with d_in), its map (through the evaluator) and its privacy-map closure (called "
        "directly) are called at each (d_in, delta), and the pair it returns is checked against "
        "the value of the inner profile at that same d_in: a conversion that, at one of the "
        "checked d_in, reads a lower profile than its own d_in gives is refuted where its answer "
        "is then too small, a misreading at other d_in only is not checked; a FailedMapError "
        "refusal claims nothing, any other exception is a counterexample; under "
        "Approximate(SmoothedMaxDivergence) the inner map gives (profile, min(1, fixed * d_in)) "
        "and the pair returned is checked as profile(epsilon) + inner delta <= delta, exactly",
        instances=f"{len(PROFILES)} inner profile families (real make_zCDP_to_approxDP at rho "
        f"from 1e-10 to +inf, linear and quadratic in d_in; exponential curves; steps) x "
        f"{len(DELTAS)} deltas from 0 to 1 x every d_in of {shown_d_ins()} x 2 (map and "
        "closure); and "
        f"{len(PAIR_PROFILES)} pair families x {len(PAIR_FIXED)} inner deltas x the same "
        "(d_in, delta) x 2",
        bit_precise=(
            "at the instances: the profile's value at the returned epsilon is compared "
            "exactly with delta",
            "the bisection's growth step (every f64) and the answer's recheck (every f64)",
        ),
        reduced_formats=(
            "the bisection's midpoint step, for every f32 and every f16 pair (the code's f64 "
            "step exceeds the time budget)",
        ),
        assumed=(
            "the inner measurement's profile is valid at every epsilon (its own theorem); under "
            "Approximate(SmoothedMaxDivergence), its pair (profile, fixed) is valid in the sense "
            "of definitions.tex (approximate-profile)",
        ),
    )
}


MODELLED = {
    _NAME: [
        "combinators/fix_delta/make_fix_delta.py",
        "core/measures.py",
        "combinators/_support/conversion_smt.py",
        # the instances' inner profiles are the real make_zCDP_to_approxDP's
        "combinators/zCDP_to_approxDP/make_zCDP_to_approxDP.py",
        "combinators/_conversion/cdp_delta.py",
        "combinators/_conversion/inner_values.py",
        "numeric/floats.py",
        "numeric/quick.py",
        "numeric/quick_elementary.py",
    ],
}
