"""SMT model of ``make_zCDP_to_approxDP``'s map (``cdp_delta``), and the bounded checks that the
map of the real constructor returns a valid delta.

Obligations bound to the code (``code``), one per inner rho of
:data:`certdp.contracts.smt_code.F64_SAMPLES` (zero, subnormals, values around 1, huge values,
the largest finite f64, ``+inf``, seeded draws over every exponent), with one case per epsilon
of the same list: the real ``make_zCDP_to_approxDP`` is built over a zCDP measurement whose map
is ``d_in -> rho * d_in`` (exact; :mod:`..._support.conversion_smt`), its map is called at
``d_in = 1`` (where the inner loss is rho itself); and three more obligations, for the base
rhos of :data:`D_IN_RHOS`, build it over inner maps ``d_in -> rho * d_in`` and ``d_in -> rho *
d_in**2`` (a Gaussian's rho grows as ``d_in**2``) and call it at every ``d_in`` of
``CONVERSION_D_INS`` (1, 2, 3, 7, 10, 100, 0.5, 1/3, 1000, 10**400), each case judged against
the inner loss of that family at that same ``d_in``.  So a conversion that, at one of these
``d_in``, reads a smaller inner rho than its own ``d_in`` gives (another distance, or the value
at ``d_in = 1`` scaled linearly) is refuted; a misreading only at other ``d_in`` is not
checked.  The profile
returned is evaluated at epsilon, under a tracer that records the order
``a`` the code chose and the arguments and results of its calls of ``inf_ln_1p`` and
``inf_exp`` (:func:`certdp.contracts.smt_code.traced`: the values the code computed, read, not
recomputed).  A case is satisfiable exactly when the returned delta is NaN or negative, or is
below 1 while no order certifies it: ``delta (a - 1) >= exp((a - 1)(a rho - epsilon) +
a ln(1 - 1/a))`` (the bound of Canonne, Kamath and Steinke at order ``a``, valid for every
``a > 1``) fails for both candidate orders, the code's ``a`` and ``a* = max(2, (epsilon + 1) /
(2 rho))``.  Everything is exact rational arithmetic except ``exp`` and ``ln(1 + y)``, which are
free (uninterpreted) functions constrained only by true facts at the points used: ``exp`` is
positive and monotone, ``ln(1 + y)`` is monotone and ``<= y``, ``exp(x) <= 1 / (1 - x/2)^2`` for
``x <= 0``, and the theorem of numeric/elementary.tex on the code's own calls (``inf_exp(s) >= exp(s)``,
``inf_ln_1p(y) >= ln(1 + y)``, the functions of :mod:`certdp.numeric`, which the code calls
through ``quick_inf_exp`` and ``quick_inf_ln_1p``, the same bits by numeric/quick_elementary.tex),
which is assumed here, not checked.  ``rho = 0`` and
``epsilon = +inf`` make every delta valid; delta ``>= 1`` is always valid.

Under ``Approximate(ZeroConcentratedDivergence)`` (:func:`pair_instance`, one obligation per
rho of :data:`PAIR_RHOS`): the real constructor is built over inner maps ``d_in -> (rho d_in,
min(1, delta d_in))`` and ``d_in -> (rho d_in**2, min(1, delta d_in))`` for every delta of
:data:`PAIR_DELTAS`, and at every ``d_in`` of ``CONVERSION_D_INS`` the pair it returns (map
and closure) must have a delta at least the inner delta at that ``d_in`` (exact) and a profile
that passes the check above, at every epsilon of :data:`PAIR_EPSILONS`, for the inner rho at
that ``d_in``.  So a conversion that drops or lowers the inner delta, or reads either
coordinate of the inner pair at another distance, is refuted at these instances.

Model of the arithmetic (cdp_delta.py, lines ``ar-e`` to ``at-most-one``), for an order ``a``,
``rho > 0`` and ``epsilon >= 0``::

    ar_e  = RU(RU(a * rho) - epsilon)                      >= a rho - epsilon
    a_1   = RD(a - 1) if ar_e < 0 else RU(a - 1)
    t1    = RU(a_1 * ar_e)                                 >= (a - 1)(a rho - epsilon)
    q     = RD(1 / a);  L = inf_ln_1p(-q) >= ln(1 - q) >= ln(1 - 1/a)
    t2    = RU(a * L)                                      >= a ln(1 - 1/a)
    E     = inf_exp(RU(t1 + t2))                           >= exp(t1 + t2)
    delta = min(RU(E / RD(a - 1)), 1)                      >= E / (a - 1)

with the code's overflow branches (:func:`delta_of_order`: an overflow of ``a rho - epsilon``,
of ``t1`` with ``ar_e >= 0``, or of the last line returns 1; ``t1`` overflowing below
``-MAX`` becomes ``-MAX``, and so does the exponent ``t1 + t2`` when it leaves the range,
which can only be below it).  Those floors are proved in cdp_delta.tex; the obligation on the
reduced format below covers the steps where nothing overflows, and the bound-to-code cases
cover the floors only at the sampled pairs.  ``tests/prove/test_combinator_models.py`` checks that this model,
fed the order the code chose and the code's own ``inf_ln_1p`` and ``inf_exp``, equals the code
bit for bit in f64, over the whole range of rho and epsilon.

Obligation on the model, in a reduced format: every ``a >= 1.01``, ``rho > 0``,
``epsilon >= 0``, ``L``, ``E > 0`` finite floats of ``f8 = FP(4, 4)`` (the code's arithmetic
is f64; the same operations in a reduced format, where each rounds often), one case per step:
``q <= 1/a``; ``ar_e >= a rho - epsilon``; ``a_1 >= 0`` on the side of ``a - 1`` that the sign of
``ar_e`` favours; ``t1 >= a_1 ar_e``; ``t2 >= a L``; ``s >= t1 + t2``; ``0 < RD(a - 1) <= a - 1``;
``RU(E / RD(a - 1)) >= E / (a - 1)``, all compared exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from certdp.combinators._support.conversion_smt import (
    CONVERSION_D_INS,
    LOSS_FAMILIES,
    d_in_stub_measurement,
    grown_delta,
    linear,
    raised_case,
    shown_d_ins,
)
from certdp.combinators._support.smt_exact import to_exact
from certdp.contracts.obligation import Obligation
from certdp.contracts.smt import float_of, float_sort
from certdp.contracts.smt_code import F64_MAX, F64_SAMPLES, Scope, exact, traced

__all__ = [
    "delta_at_order",
    "delta_of_order",
    "delta_instance",
    "code_delta",
    "code_order",
    "code_instance",
    "pair_instance",
    "PAIR_RHOS",
    "PAIR_DELTAS",
    "PAIR_EPSILONS",
    "obligations",
    "MODELLED",
    "SCOPE",
]

_FORMATS = ["f8"]


def delta_at_order(a, rho, epsilon, ln_up, exp_up, sub_mode=None):
    """The code's steps from ``ar-e`` to ``delta`` (before ``min(., 1)``): a dict of the
    intermediate z3 floats.  ``ln_up(y)``/``exp_up(x)`` stand for ``inf_ln_1p``/``inf_exp``;
    ``sub_mode`` replaces the rounding of ``a - 1`` in the divisor (a deliberately wrong model)."""
    up, down = z3.RTP(), z3.RTN()
    sort = a.sort()
    one = z3.FPVal(1.0, sort)
    ar_e = z3.fpSub(up, z3.fpMul(up, a, rho), epsilon)
    negative = z3.fpLT(ar_e, z3.FPVal(0.0, sort))
    a_1 = z3.If(negative, z3.fpSub(down, a, one), z3.fpSub(up, a, one))
    t1 = z3.fpMul(up, a_1, ar_e)
    q = z3.fpDiv(down, one, a)
    L = ln_up(z3.fpNeg(q))
    t2 = z3.fpMul(up, a, L)
    s = z3.fpAdd(up, t1, t2)
    E = exp_up(s)
    divisor = z3.fpSub(down if sub_mode is None else sub_mode, a, one)
    delta = z3.fpDiv(up, E, divisor)
    return {"ar_e": ar_e, "a_1": a_1, "t1": t1, "q": q, "L": L, "t2": t2, "s": s, "E": E,
            "divisor": divisor, "delta": delta}  # fmt: skip


def delta_instance(fmt: str, sub_mode=None) -> Obligation:
    sort = float_sort(fmt)
    a, rho, epsilon = (z3.FP(n, sort) for n in ("a", "rho", "epsilon"))
    L, E = z3.FP("L", sort), z3.FP("E", sort)
    wide = z3.FPSort(sort.ebits() + 4, 4 * sort.sbits() + 2 * (1 << sort.ebits()))

    def violation():
        steps = delta_at_order(a, rho, epsilon, lambda y: L, lambda x: E, sub_mode)
        x = {k: to_exact(v, wide) for k, v in steps.items()}
        A, R, P = (to_exact(v, wide) for v in (a, rho, epsilon))
        one = z3.FPVal(1.0, wide)
        exact = z3.RNE()  # exact in ``wide``: every operand has at most a few dozen bits
        a_minus_1 = z3.fpSub(exact, A, one)
        finite = z3.And(*[z3.fpIsNormal(v) | z3.fpIsZero(v) | z3.fpIsSubnormal(v)
                          for v in steps.values()])  # fmt: skip
        domain = z3.And(
            z3.fpGEQ(a, z3.FPVal(1.01, sort)), z3.fpGT(rho, z3.FPVal(0.0, sort)),
            z3.fpGEQ(epsilon, z3.FPVal(0.0, sort)), z3.Not(z3.fpIsNegative(epsilon)),
            z3.fpGT(E, z3.FPVal(0.0, sort)),
            *[z3.Not(z3.Or(z3.fpIsInf(v), z3.fpIsNaN(v))) for v in (a, rho, epsilon, L, E)],
        )  # fmt: skip
        properties = {
            "q <= 1/a": z3.fpGT(z3.fpMul(exact, x["q"], A), one),
            # t1 >= (a-1)(a rho - epsilon) follows from the next three by the signs:
            # a_1 ar_e >= (a-1) ar_e (a_1 on the side of a-1 that ar_e's sign favours)
            # >= (a-1)(a rho - epsilon) (a - 1 >= 0)
            "ar_e >= a rho - epsilon": z3.fpLT(
                x["ar_e"], z3.fpSub(exact, z3.fpMul(exact, A, R), P)
            ),
            "a_1 on the enlarging side of a-1, a_1 >= 0": z3.Or(
                z3.fpLT(x["a_1"], z3.FPVal(0.0, wide)),
                z3.And(z3.fpLT(x["ar_e"], z3.FPVal(0.0, wide)), z3.fpGT(x["a_1"], a_minus_1)),
                z3.And(z3.fpGEQ(x["ar_e"], z3.FPVal(0.0, wide)), z3.fpLT(x["a_1"], a_minus_1)),
            ),
            "t1 >= a_1 ar_e": z3.fpLT(x["t1"], z3.fpMul(exact, x["a_1"], x["ar_e"])),
            "t2 >= a L": z3.fpLT(x["t2"], z3.fpMul(exact, A, x["L"])),
            "s >= t1 + t2": z3.fpLT(x["s"], z3.fpAdd(exact, x["t1"], x["t2"])),
            "0 < RD(a-1) <= a-1": z3.Or(
                z3.Not(z3.fpGT(x["divisor"], z3.FPVal(0.0, wide))),
                z3.fpGT(x["divisor"], a_minus_1),
            ),
            "delta >= E/(a-1)": z3.fpLT(z3.fpMul(exact, x["delta"], a_minus_1), x["E"]),
        }

        def decode(m):
            return {k: str(m.eval(v, True)) for k, v in
                    {"a": a, "rho": rho, "epsilon": epsilon, "L": L, "E": E}.items()}  # fmt: skip

        return [
            (z3.And(domain, finite, broken), lambda m, p=name: {"property": p, **decode(m)})
            for name, broken in properties.items()
        ]

    return Obligation(
        constructor="make_zCDP_to_approxDP",
        claim=(
            f"cdp_delta's arithmetic after the order is chosen, in {fmt}: for every a >= 1.01, "
            "rho > 0, epsilon >= 0, L, E > 0 with no overflow: q <= 1/a, ar_e >= a rho - epsilon, "
            "a_1 on the enlarging side, t1 >= a_1 ar_e, t2 >= a L, s >= t1 + t2, "
            "0 < RD(a-1) <= a-1, delta >= E/(a-1), exactly"
            + ("" if sub_mode is None else f" (divisor rounded {sub_mode}: deliberately wrong)")
        ),
        format=fmt,
        size=1,
        violation=violation,
    )


_F64 = z3.Float64()


def _ieee(operation, mode, x: float, y: float) -> tuple[float, bool]:
    """``operation`` (``fpAdd``...) of two f64 values rounded by ``mode``, and whether the
    exact result leaves the finite range (the code's directed operations then raise)."""
    value = float_of(operation(mode, z3.FPVal(x, _F64), z3.FPVal(y, _F64)))
    upward = float_of(operation(z3.RTP(), z3.FPVal(x, _F64), z3.FPVal(y, _F64)))
    downward = float_of(operation(z3.RTN(), z3.FPVal(x, _F64), z3.FPVal(y, _F64)))
    return value, math.isinf(upward) or math.isinf(downward)


def delta_of_order(a: float, rho: float, epsilon: float, ln_up, exp_up) -> float:
    """The model in f64 on concrete values, with the code's branches: the delta cdp_delta
    returns at order ``a`` (``ln_up``/``exp_up`` stand for ``inf_ln_1p``/``inf_exp`` and may
    raise ``ArithmeticOverflowError``, as the code's do)."""
    from certdp.core.errors import ArithmeticOverflowError

    up, down = z3.RTP(), z3.RTN()
    product, over = _ieee(z3.fpMul, up, a, rho)
    ar_e, over_sub = _ieee(z3.fpSub, up, product, epsilon)
    if over or over_sub:
        return 1.0
    a_1, _ = _ieee(z3.fpSub, down if ar_e < 0 else up, a, 1.0)
    t1, over = _ieee(z3.fpMul, up, a_1, ar_e)
    if over:
        if ar_e >= 0:
            return 1.0
        t1 = -F64_MAX
    q, _ = _ieee(z3.fpDiv, down, 1.0, a)
    t2, _ = _ieee(z3.fpMul, up, a, ln_up(-q))
    s, over = _ieee(z3.fpAdd, up, t1, t2)
    if over:  # t1 <= MAX and t2 <= 0: the exact sum lies below -MAX
        s = -F64_MAX
    try:
        E = exp_up(s)
    except ArithmeticOverflowError:
        return 1.0
    divisor, _ = _ieee(z3.fpSub, down, a, 1.0)
    delta, over = _ieee(z3.fpDiv, up, E, divisor)
    return 1.0 if over else min(delta, 1.0)


#: The base rhos of the obligations that call the real map at every d_in of CONVERSION_D_INS.
D_IN_RHOS = (1e-10, 0.5, 10.0)


def _built(rho, family=linear):
    from certdp.core.measures import zero_concentrated_divergence

    from .make_zCDP_to_approxDP import make_zCDP_to_approxDP

    inner = d_in_stub_measurement(lambda d_in: family(rho, d_in), zero_concentrated_divergence())
    return make_zCDP_to_approxDP(inner)


def code_delta(rho, epsilon, d_in=1) -> tuple[float, list]:
    """The real ``make_zCDP_to_approxDP`` over a zCDP measurement whose map is ``d -> rho * d``:
    the profile of its map at ``d_in``, at ``epsilon``, and the trace of the calls of
    ``cdp_delta``, ``inf_ln_1p`` and ``inf_exp`` it made (see
    :func:`certdp.contracts.smt_code.traced`)."""
    profile = _built(rho).map(d_in)
    watched = ("cdp_delta", "inf_ln_1p", "inf_exp", "quick_inf_ln_1p", "quick_inf_exp")
    return traced(lambda: profile.delta(epsilon), watched)


def code_deltas(rho, epsilon, d_in=1, family=linear) -> tuple:
    """:func:`code_delta` for the profile of ``map`` and for that of the constructor's
    privacy-map closure called directly, both at ``d_in`` (the code the proof cites; ``map``
    runs the evaluator)."""
    from certdp.combinators._support.chain_smt import both_values

    watched = ("cdp_delta", "inf_ln_1p", "inf_exp", "quick_inf_ln_1p", "quick_inf_exp")
    profiles = both_values(_built(rho, family), d_in)
    return tuple(traced(lambda p=p: p.delta(epsilon), watched) for p in profiles)


def code_order(records) -> dict:
    """What the trace holds of the code's choices: ``a`` (the order, if the code chose one),
    ``ln`` and ``exp`` (the argument and result of the last completed call of ``inf_ln_1p`` and
    of ``inf_exp``, if any)."""
    found = {}
    for name, arguments, result, local in records:
        if name == "cdp_delta" and isinstance(local.get("a"), float):
            found["a"] = local["a"]
        elif name.endswith(("inf_ln_1p", "inf_exp")) and isinstance(result, float):
            # the code calls quick_inf_* (numeric/quick_elementary.tex: the same bits as
            # inf_*), which may call inf_* itself: the last completed call is the outer one
            found["ln" if name.endswith("inf_ln_1p") else "exp"] = (arguments["x"], result)
    return found


def _uncertified(rho, epsilon: float, delta, found: dict):
    """Satisfiable exactly when ``delta`` is not shown valid (see the module docstring);
    ``rho``: the inner loss (a float, an int or a Fraction, perhaps beyond f64)."""
    if not isinstance(delta, float) or math.isnan(delta) or delta < 0:
        return z3.BoolVal(True)
    if delta >= 1 or rho == 0 or math.isinf(epsilon):
        return z3.BoolVal(False)
    if rho == math.inf:
        return z3.BoolVal(True)  # no order bounds an infinite rho below 1
    exp = z3.Function("exp", z3.RealSort(), z3.RealSort())
    ln1p = z3.Function("ln1p", z3.RealSort(), z3.RealSort())
    R, P, D = exact(rho), exact(epsilon), exact(delta)
    facts, fails = [], []
    star = max(Fraction(2), (Fraction(epsilon) + 1) / (2 * Fraction(rho)))
    traced_calls = "a" in found and "exp" in found and "ln" in found
    candidates = [(star, False)] + ([(Fraction(found["a"]), True)] if "a" in found else [])
    for a, from_code in candidates:
        A = exact(a)
        at = ln1p(exact(-1 / a))
        X = (A - 1) * (A * R - P) + A * at
        facts += [exp(X) > 0, at <= exact(-1 / a)]  # ln(1 + y) <= y
        if not (from_code and traced_calls):
            bound = (a - 1) * (a * Fraction(rho) - Fraction(epsilon)) - 1
            facts.append(z3.Implies(X <= exact(bound), exp(X) <= exp(exact(bound))))
            if bound <= 0:  # exp(x) = exp(x/2)^2 <= 1/(1 - x/2)^2
                facts.append(exp(exact(bound)) <= exact(1 / (1 - bound / 2) ** 2))
        else:
            (y, L), (s, E) = found["ln"], found["exp"]
            facts += [
                exact(L) >= ln1p(exact(y)),  # inf_ln_1p's lemma (assumed)
                exact(E) >= exp(exact(s)),  # inf_exp's lemma (assumed)
                z3.Implies(exact(y) >= exact(-1 / a), ln1p(exact(y)) >= at),  # monotone
                z3.Implies(X <= exact(s), exp(X) <= exp(exact(s))),  # monotone
            ]
        fails.append(D * (A - 1) < exp(X))
    return z3.And(*facts, *fails)


def code_instance(rho: float, map_of=None, d_ins=(1,)) -> Obligation:
    """The real map over the inner map ``d -> rho * d`` at every ``d_in`` of ``d_ins`` and every
    epsilon of :data:`F64_SAMPLES`; ``map_of(loss, epsilon)`` replaces :func:`code_delta` (for
    the tests)."""

    families = LOSS_FAMILIES[:1] if d_ins == (1,) else LOSS_FAMILIES

    def violation():
        cases = []
        for shown, family in families:
            for d_in in d_ins:
                loss = family(rho, d_in)
                for epsilon in F64_SAMPLES:
                    where = {"inner map": f"rho {shown}", "rho": repr(rho), "d_in": repr(d_in),
                             "epsilon": repr(epsilon)}  # fmt: skip
                    try:
                        outcomes = (
                            (map_of(loss, epsilon),)
                            if map_of
                            else code_deltas(rho, epsilon, d_in, family)
                        )
                    except Exception as error:  # a map or profile that raises here is refuted
                        cases.append(raised_case(error, where))
                        continue
                    for path, (delta, records) in zip(("map", "closure"), outcomes):
                        found = code_order(records)
                        example = {**where, "path": path, "code delta": repr(delta),
                                   "code order": repr(found.get("a"))}  # fmt: skip
                        uncertified = _uncertified(loss, epsilon, delta, found)
                        cases.append((uncertified, lambda m, e=example: e))
        return cases

    where = (
        f"at rho={rho!r}, d_in = 1"
        if d_ins == (1,)
        else f"over the inner map d_in -> {rho!r} * d_in, and the inner map d_in -> {rho!r} * "
        f"d_in**2 (a Gaussian's growth), at every d_in of {shown_d_ins()}"
    )
    return Obligation(
        constructor="make_zCDP_to_approxDP",
        claim=f"real make_zCDP_to_approxDP {where}, every epsilon of {len(F64_SAMPLES)} "
        "f64 samples (0, subnormal, ..., MAX, +inf): the profile's (from the map and from the "
        "privacy-map closure called directly) delta is in [0, 1] and, when "
        "below 1, at least the CKS bound for the inner loss at that d_in, at the code's order "
        "or at (epsilon+1)/(2 rho) (exact; "
        "exp and ln free, the code's inf_exp/inf_ln_1p results assumed >= exp/ln)",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


#: Approximate(ZeroConcentratedDivergence): the base rhos, the inner deltas (at ``d_in = 1``;
#: at ``d_in`` the inner delta is ``min(1, delta d_in)``) and the epsilons of the pair
#: obligations.
PAIR_RHOS = (1e-10, 0.5, 10.0, math.inf)
PAIR_DELTAS = (0.0, 5e-324, 1.1102230246251565e-16, 1e-6, 0.5, 1.0)
PAIR_EPSILONS = (0.0, 5e-324, 1e-10, 0.5, 1.0, 10.0, 1e300, math.inf)


def _built_pair(rho, fixed, family):
    from certdp.core.measures import approximate, zero_concentrated_divergence

    from .make_zCDP_to_approxDP import make_zCDP_to_approxDP

    measure = approximate(zero_concentrated_divergence())
    inner = d_in_stub_measurement(lambda d: (family(rho, d), grown_delta(fixed, d)), measure)
    return make_zCDP_to_approxDP(inner)


def _pair_delta_case(value, inner_delta):
    """Satisfiable exactly when ``value`` is not a pair whose second item is a number at least
    the inner map's delta (exact)."""
    if type(value) is not tuple or len(value) != 2:
        return z3.BoolVal(True)
    stated = value[1]
    if not isinstance(stated, (int, float, Fraction)) or stated != stated:
        return z3.BoolVal(True)
    return exact(stated) < exact(inner_delta)


def pair_instance(rho, map_of=None) -> Obligation:
    """The real map over the Approximate(ZeroConcentratedDivergence) inner maps ``d -> (rho d,
    min(1, delta d))`` and ``d -> (rho d**2, min(1, delta d))`` at every ``d_in`` of
    CONVERSION_D_INS, every delta of PAIR_DELTAS: the pair's delta must be at least the inner
    delta at that ``d_in`` and its profile, at every epsilon of PAIR_EPSILONS, must be certified
    as in :func:`code_instance` for the inner rho at that ``d_in``.  ``map_of(built, d_in)``
    replaces the map and the closure (for the tests)."""
    watched = ("cdp_delta", "inf_ln_1p", "inf_exp", "quick_inf_ln_1p", "quick_inf_exp")

    def violation():
        from certdp.combinators._support.chain_smt import both_values

        cases = []
        for shown, family in LOSS_FAMILIES:
            for fixed in PAIR_DELTAS:
                for d_in in CONVERSION_D_INS:
                    loss, inner_delta = family(rho, d_in), grown_delta(fixed, d_in)
                    where = {"inner map": f"(rho {shown}, delta * d_in)", "rho": repr(rho),
                             "delta": repr(fixed), "d_in": repr(d_in)}  # fmt: skip
                    # a fresh pair per epsilon: the profile's memo would hide the code's order
                    for epsilon in (None, *PAIR_EPSILONS):
                        at = {**where, "epsilon": repr(epsilon)}
                        built = _built_pair(rho, fixed, family)
                        try:
                            values = map_of(built, d_in) if map_of else both_values(built, d_in)
                        except Exception as error:  # the map raises here: refuted
                            cases.append(raised_case(error, at))
                            continue
                        for path, value in zip(("map", "closure"), values):
                            example = {**at, "path": path, "code value": repr(value)}
                            if epsilon is None:  # the pair's delta, once per d_in
                                case = _pair_delta_case(value, inner_delta)
                                cases.append((case, lambda m, e=example: e))
                                continue
                            if type(value) is not tuple or len(value) != 2:
                                continue  # refuted by the pair's own case
                            try:
                                delta, records = traced(
                                    lambda p=value[0], e=epsilon: p.delta(e), watched
                                )
                            except Exception as error:
                                cases.append(raised_case(error, example))
                                continue
                            example["code delta"] = repr(delta)
                            uncertified = _uncertified(loss, epsilon, delta, code_order(records))
                            cases.append((uncertified, lambda m, e=example: e))
        return cases

    return Obligation(
        constructor="make_zCDP_to_approxDP",
        claim=f"real make_zCDP_to_approxDP under Approximate(ZeroConcentratedDivergence) over "
        f"the inner maps d_in -> ({rho!r} * d_in, min(1, delta * d_in)) and d_in -> ({rho!r} * "
        f"d_in**2, min(1, delta * d_in)), delta in {PAIR_DELTAS}, at every d_in of "
        f"{shown_d_ins()} (map and privacy-map closure): the pair's delta is at least the inner "
        f"delta (exact) and its profile, at every epsilon of {PAIR_EPSILONS}, is in [0, 1] and, "
        "when below 1, at least the CKS bound for the inner rho at that d_in, at the code's "
        "order or at (epsilon+1)/(2 rho) (exact; exp and ln free, the code's inf_exp/inf_ln_1p "
        "results assumed >= exp/ln)",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_zCDP_to_approxDP" not in names:
        return []
    at_d_ins = [code_instance(rho, d_ins=CONVERSION_D_INS) for rho in D_IN_RHOS]
    return (
        [code_instance(rho) for rho in F64_SAMPLES]
        + at_d_ins
        + [pair_instance(rho) for rho in PAIR_RHOS]
        + [delta_instance(fmt) for fmt in _FORMATS]
    )


SCOPE = {
    "make_zCDP_to_approxDP": Scope(
        formats=("f64", "f8"),
        bound_to_code="the real make_zCDP_to_approxDP is built over inner measurements whose "
        "maps are d_in -> rho * d_in and (for the d_in checks) d_in -> rho * d_in**2 (exact) for "
        "each sampled rho, the profiles of its map (through the evaluator) and of its "
        "privacy-map closure (called directly) at d_in are evaluated at each sampled epsilon and "
        "judged against the inner loss of that family at that same d_in: a conversion that, at "
        "one of the checked d_in, reads a smaller inner rho than its own d_in gives (another "
        "distance, or the value at d_in = 1 scaled linearly) is refuted, a misreading at other "
        "d_in only is not checked; a call that raises is a counterexample; and the order and the "
        "inf_exp/inf_ln_1p calls the code made are read by a tracer. Under "
        "Approximate(ZeroConcentratedDivergence) the real constructor is built over inner maps "
        "d_in -> (rho * d_in or rho * d_in**2, min(1, delta * d_in)) and the pair it returns "
        "(map and closure) is judged at each checked d_in: its delta against the inner delta "
        "there (exact), its profile as above",
        instances=f"{len(F64_SAMPLES)} x {len(F64_SAMPLES)} pairs (rho, epsilon) of f64 values "
        "spanning the format (0, subnormals, 1, huge values, MAX, +inf, seeded draws) at d_in = "
        f"1; and {len(D_IN_RHOS)} base rhos {D_IN_RHOS} x 2 inner families x "
        f"{len(F64_SAMPLES)} epsilons at every d_in of {shown_d_ins()} (int, f64, Fraction, "
        "beyond the f64 range); x 2 (map and closure); Approximate(ZeroConcentratedDivergence): "
        f"{len(PAIR_RHOS)} rhos {PAIR_RHOS} x {len(PAIR_DELTAS)} inner deltas x 2 families x "
        f"every d_in x {len(PAIR_EPSILONS)} epsilons x 2 (map and closure)",
        bit_precise=(
            "at the instances: the returned delta is compared exactly (rational arithmetic) "
            "with the bound of Canonne, Kamath and Steinke",
        ),
        reduced_formats=(
            "the direction of every rounding step of the arithmetic, for every a, rho, epsilon "
            "of the reduced format f8 = FP(4, 4) (the code computes in f64)",
        ),
        free_functions=(
            "exp and ln(1 + y): only positivity, monotonicity, ln(1 + y) <= y and "
            "exp(x) <= 1/(1 - x/2)^2 (x <= 0) are used",
        ),
        assumed=(
            "inf_exp(s) >= exp(s) and inf_ln_1p(y) >= ln(1 + y) at the code's own calls "
            "(theorem directed elementary functions of numeric/elementary.tex), which the code "
            "makes through quick_inf_exp and quick_inf_ln_1p (the same bits: theorem quick "
            "elementary functions of numeric/quick_elementary.tex, proved on paper)",
            "the conversion theorem of Canonne, Kamath and Steinke (cdp_delta.tex)",
            "quick_inf_* and quick_neg_inf_* return the bits of the exact directed operations "
            "(theorem quick operations of numeric/quick.tex, proved on paper): the f8 part "
            "models each of the code's quick calls as an exact directed rounding",
        ),
    )
}


MODELLED = {
    "make_zCDP_to_approxDP": [
        "combinators/zCDP_to_approxDP/make_zCDP_to_approxDP.py",
        "combinators/_conversion/cdp_delta.py",
        "combinators/_conversion/inner_values.py",
        "combinators/_support/smt_exact.py",
        "combinators/_support/conversion_smt.py",
        "numeric/floats.py",
        "numeric/quick.py",
        "numeric/quick_elementary.py",
    ]
}
