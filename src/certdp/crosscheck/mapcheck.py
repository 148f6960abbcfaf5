"""The map check: the target's map value against certdp's, and against the exact bound.

Classes, decided with exact arithmetic (rationals; sympy for the proof's closed form):

* ``equal``: the target's value is certdp's;
* ``conservative``: it is larger than certdp's;
* ``tighter``: it is smaller than certdp's but still at least the exact bound of certdp's
  proof (``contract.bound``), or certdp refuses that distance but the value clears the bound;
* ``below``: it is below the exact bound.  The target may run another algorithm than certdp's
  (another summation order, another sampler), so this makes a *suspect*, never a violation.
  A contract whose bound is sound but far above the true sensitivity (``bound_is_floor =
  False``, or a function of the arguments that says False for them) gives no exact bound:
  its values below certdp's stay unclassified.

For (epsilon, delta) pairs and privacy profiles (also the profile of a (profile, delta) pair,
whose delta is compared as a number) the exact bound is the smallest delta that
rho-zCDP gives at the target's epsilon, from rho = the exact bound of the inner Gaussian
(evaluated at 80 digits; "below" needs a margin of 1e-20 relative, so the enclosure is not
trusted at its last digits).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy

from certdp.contracts.contract import as_rational

__all__ = ["MapOutcome", "compare_maps", "exact_bound", "rational_lower_bound"]


@dataclass
class MapOutcome:
    d_in: object
    klass: str  # one of findings.MAP_CLASSES, or "unclassified"
    target: object
    certdp: object
    exact: object
    note: str = ""


def exact_bound(oracle, d_in):
    """The exact bound of certdp's proof for the built ``oracle`` at ``d_in`` (sympy)."""
    postcondition = getattr(oracle, "postcondition", None)
    if postcondition is None:
        return None
    contract = postcondition.contract
    if getattr(contract, "check_map_value", None) is not None:
        return None
    floor = getattr(contract, "bound_is_floor", True)
    if callable(floor):  # decided per built object, from its arguments
        floor = floor(postcondition.arguments)
    if not floor:
        return None  # a sound bound above the true sensitivity: a map below it is not suspect
    return contract.exact_bound(postcondition.arguments, oracle, d_in)


def rational_lower_bound(value) -> Fraction | None:
    """A rational at most the sympy number ``value`` (exact when it is rational)."""
    value = sympy.nsimplify(value) if not isinstance(value, sympy.Basic) else value
    if value is sympy.oo:
        return None
    if value.is_Rational:
        return Fraction(int(value.p), int(value.q))
    scaled = sympy.floor(value * sympy.Integer(10) ** 40)
    return Fraction(int(scaled), 10**40)


def _number(value) -> Fraction | float:
    if isinstance(value, float) and math.isinf(value):
        return value
    return Fraction(value)


def _classify_number(target, certdp, exact) -> tuple[str, object]:
    t = _number(target)
    if certdp is not None and _number(certdp) == t:
        return "equal", exact
    if certdp is not None and t > _number(certdp):
        return "conservative", exact
    if exact is None:
        return "unclassified", exact
    exact = as_rational(exact) if not isinstance(exact, sympy.Basic) else exact
    lower = rational_lower_bound(exact)
    if lower is not None and t != math.inf and t < lower:
        return "below", exact
    return "tighter", exact


def _inner_rho(oracle, d_in):
    """The exact rho of the Gaussian under a zCDP-to-approxDP conversion (or fix_delta)."""
    measurement = oracle
    while True:
        postcondition = getattr(measurement, "postcondition", None)
        if postcondition is None:
            return None
        inner = getattr(postcondition.arguments, "measurement", None)
        if inner is None:
            return exact_bound(measurement, d_in)
        measurement = inner


def _delta_floor(rho, epsilon):
    from certdp.combinators._support.contract_support import mp_cdp_delta

    return mp_cdp_delta(Fraction(rho.p, rho.q) if rho.is_Rational else float(rho), epsilon)


def _below_profile(delta, rho, epsilon) -> bool:
    if rho is None or epsilon == math.inf:
        return False
    smallest = _delta_floor(rho, epsilon)
    return delta < smallest * (1 - 1e-20)


def _classify_curve(point, d_in, target, certdp) -> list[MapOutcome]:
    """The target's curve against certdp's at each order of the point (an order at which the
    target refuses claims nothing; one certdp refuses is compared with ``None``)."""
    found = []
    for alpha in point.alphas:
        try:
            value_t = target(alpha)
        except Exception:
            continue
        try:
            value_c = certdp(alpha) if certdp is not None else None
        except Exception:
            value_c = None
        klass, _ = _classify_number(value_t, value_c, None)
        found.append(
            MapOutcome(d_in, klass, (value_t, alpha), (value_c, alpha), None, "curve(alpha)")
        )
    return found


def _classify_profile(point, d_in, target, certdp, oracle, label="") -> list[MapOutcome]:
    """The target's profile against certdp's, by the epsilon each gives at every delta of the
    point (a delta at which the target refuses claims nothing)."""
    rho = _inner_rho(oracle, d_in) if oracle is not None else None
    if rho is not None and not isinstance(rho, sympy.Basic):
        rho = None  # an inner pair (rho, delta), not a rho: no exact profile floor
    found = []
    for delta in point.deltas:
        try:
            eps_t = target.epsilon(delta)
        except Exception:
            continue
        eps_c = None
        if certdp is not None:
            try:
                eps_c = certdp.epsilon(delta)
            except Exception:
                eps_c = None
        klass, _ = _classify_number(eps_t, eps_c, None)
        if klass == "unclassified":
            klass = "below" if _below_profile(delta, rho, eps_t) else "tighter"
        found.append(
            MapOutcome(d_in, klass, (eps_t, delta), (eps_c, delta), rho, f"{label}epsilon(delta)")
        )
    return found


def compare_maps(point, target_built, oracle_built) -> list[MapOutcome]:
    """Every ``d_in`` of the point: the target's value classified against certdp's."""
    outcomes = []
    for d_in in point.d_ins:
        try:
            target = target_built.map(d_in)
        except Exception:
            continue  # the target refuses this distance: it claims nothing
        certdp = None
        if oracle_built is not None:
            try:
                certdp = oracle_built.map(d_in)
            except Exception:
                certdp = None
        outcomes.extend(_classify(point, d_in, target, certdp, oracle_built))
    return outcomes


def _classify(point, d_in, target, certdp, oracle) -> list[MapOutcome]:
    if point.alphas and callable(target):  # a Rényi curve, compared order by order
        return _classify_curve(point, d_in, target, certdp)
    if hasattr(target, "epsilon") and point.deltas:  # a privacy profile
        return _classify_profile(point, d_in, target, certdp, oracle)
    if (  # (privacy profile, delta): Approximate(SmoothedMaxDivergence)
        isinstance(target, tuple) and len(target) == 2 and hasattr(target[0], "epsilon")
        and point.deltas
    ):  # fmt: skip
        profile_c, delta_c = certdp if isinstance(certdp, tuple) else (None, None)
        found = _classify_profile(point, d_in, target[0], profile_c, oracle, "profile ")
        try:
            klass, _ = _classify_number(target[1], delta_c, None)
        except (TypeError, ValueError):
            klass = "unclassified"
        found.append(MapOutcome(d_in, klass, target[1], delta_c, None, "delta beside the profile"))
        return found
    if isinstance(target, tuple) and len(target) == 3:  # (l0, lp, linf), component by component
        exact = exact_bound(oracle, d_in) if oracle is not None else None
        if certdp is not None and tuple(target) == tuple(certdp):
            klass = "equal"
        elif certdp is not None and all(t >= c for t, c in zip(target, certdp)):
            klass = "conservative"
        elif exact is not None and all(bool(t >= exact) for t in target):
            klass = "tighter"
        else:
            klass = "below" if exact is not None else "unclassified"
        return [MapOutcome(d_in, klass, tuple(target), certdp, exact, "(l0, lp, linf)")]
    if isinstance(target, tuple):  # (epsilon, delta)
        eps_t, delta_t = target
        eps_c, delta_c = certdp if certdp is not None else (None, None)
        if certdp is not None and (eps_t, delta_t) == (eps_c, delta_c):
            klass = "equal"
        elif certdp is not None and eps_t >= eps_c and delta_t >= delta_c:
            klass = "conservative"
        else:
            rho = _inner_rho(oracle, d_in) if oracle is not None else None
            if rho is None:
                klass = "unclassified"
            else:
                klass = "below" if _below_profile(delta_t, rho, eps_t) else "tighter"
        return [MapOutcome(d_in, klass, target, certdp, None, "(epsilon, delta)")]
    exact = exact_bound(oracle, d_in) if oracle is not None else None
    try:
        klass, exact = _classify_number(target, certdp, exact)
    except (TypeError, ValueError):
        return [MapOutcome(d_in, "unclassified", target, certdp, exact, "not a number")]
    return [MapOutcome(d_in, klass, target, certdp, exact)]
