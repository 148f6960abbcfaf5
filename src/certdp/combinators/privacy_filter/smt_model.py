"""SMT obligations of ``make_privacy_filter``, bound to the code: its map, and its budget.

Map (``map``): at every budget of :data:`BUDGETS` (the f64 samples of
:data:`certdp.contracts.smt_code.F64_SAMPLES`, ``+inf`` included, and fractions that no f64
holds) and every ``d_in`` of :data:`D_INS`, the real filter is built and its own map is called at
``0`` and at ``d_in``; the obligation is satisfiable exactly when a value is NaN or below the
budget (compared as exact reals), or differs from the model (the budget rounded toward ``+inf``
into Float64 by z3: ``roundTowardPositive``), or when the map answers at the next f64 above
``d_in`` instead of refusing.

Budget (``budget``): at every pair and 40 seeded triples of sampled losses, under the budgets
``1``, ``1/3``, ``1e300`` and ``2**1100`` (past the largest f64), the real filter is invoked with queries whose maps state those losses,
one after another (``sequence``) and, for the triples, the second and third submitted from inside
the first query's function (``callback``: they run while the first is being released).  The
obligation is satisfiable exactly when the exact sum of the answered queries' losses exceeds
the budget, or a query was refused although the exact sum with it, rounded up into Float64 by
z3, is within the budget (so the code refuses exactly what the theorem's rule refuses), or a
refused query's function ran.

Pairs (``Approximate(ZeroConcentratedDivergence)``): the same two obligations with pair losses
``(rho, delta)`` and pair budgets.  The map obligation (``pair map``) builds the real filter at
every pair of :data:`PAIR_BUDGETS` and checks each coordinate of its map against z3's rounding
toward ``+inf``, and that a budget with ``delta > 1`` is refused (a ``MakeMeasurementError``).
The budget obligation (``pairs``, in sequence and from inside the first query's function) runs
:func:`pair_loss_lists` under :data:`PAIR_CHECK_BUDGETS`; it is satisfiable exactly when one
coordinate of the answered losses' exact sum exceeds the budget's, or a query was refused
although both exact coordinate sums with it are within the budget, or a refused query ran.

Child guard (``child guard``): the real filter, under ``Approximate(ZeroConcentratedDivergence)``
and under ``MaxDivergence``, answers a query whose function builds a queryable (a child: the
real fully adaptive odometer invoked on its data), queries the child while it runs, and returns
it; the function also starts a thread that builds a second child (``new_queryable``) and queries
it there, and joins it.  Each child is then queried again from outside (in the same thread, and
from a new thread).  Satisfiable exactly when a child did not answer while the function ran, or,
under Approximate(zCDP), answered afterwards or refused with anything but
``FailedFunctionError`` naming ``query`` (the guard of sequential interaction); or, under
MaxDivergence (concurrent composition allowed), refused afterwards.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import combinations_with_replacement

import z3

from certdp.contracts.obligation import Obligation
from certdp.contracts.smt_code import F64_MAX, F64_SAMPLES, Scope, exact

__all__ = ["obligations", "code_budget", "filter_map", "MODELLED", "SCOPE"]

BUDGETS = [
    *F64_SAMPLES, Fraction(1, 3), Fraction(1, 10), Fraction(2**1100 + 1, 2**100), 2**1024, 3**700,
]  # fmt: skip
D_INS = [0.0, 5e-324, 1.0, 3.0, F64_MAX]
CHECK_BUDGETS = [1.0, Fraction(1, 3), 1e300, 2**1100]
#: Budget deltas under Approximate(zCDP) (at most 1), and pair budgets for the map obligation.
DELTAS = [0.0, 5e-324, 1e-10, Fraction(1, 3), 0.5, 1.0, 1]
PAIR_BUDGETS = [(rho, delta) for rho in BUDGETS[::3] for delta in DELTAS]
#: Refused budgets: a delta above 1.
REFUSED_PAIRS = [(1.0, 1.0000000000000002), (0.0, Fraction(3, 2)), (1.0, 2**1100), (1.0, math.inf)]
PAIR_CHECK_BUDGETS = [(1.0, 1e-6), (Fraction(1, 3), Fraction(1, 3)), (1e300, 1.0), (2**1100, 0.5)]

_F64 = z3.Float64()


def _space():
    from certdp.core.domains import atom_domain
    from certdp.core.metrics import absolute_distance

    return atom_domain(T="f64", nan=False), absolute_distance(T="f64")


def _measure(pair: bool):
    from certdp.core.measures import approximate, max_divergence, zero_concentrated_divergence

    return approximate(zero_concentrated_divergence()) if pair else max_divergence()


def _filter(d_in, d_out):
    from certdp.combinators.fully_adaptive_composition import make_fully_adaptive_composition

    from .make_privacy_filter import make_privacy_filter

    measure = _measure(type(d_out) is tuple)  # pair budgets: Approximate(zCDP)
    odometer = make_fully_adaptive_composition(*_space(), measure)
    return make_privacy_filter(odometer, d_in, d_out)


def filter_map(d_in, d_out, at):
    """The real filter's map at ``at``, or the error it raises (its type name); a pair
    ``d_out`` builds an Approximate(ZeroConcentratedDivergence) filter."""
    try:
        return _filter(d_in, d_out).map(at)
    except Exception as error:  # noqa: BLE001 - the refusal is what is checked
        return type(error).__name__


def _model(d_out) -> z3.FPRef:
    """The budget rounded toward +inf into Float64 (z3's own rounding of an exact real)."""
    if d_out == math.inf:
        return z3.fpPlusInfinity(_F64)
    return z3.fpToFP(z3.RTP(), exact(d_out), _F64)


def _coordinate_violation(value, d_out) -> z3.BoolRef:
    """Is the stated ``value`` not the least f64 ``>= d_out`` (NaN, below, or another f64)?"""
    if not isinstance(value, float) or math.isnan(value):
        return z3.BoolVal(True)
    if value == math.inf:
        return z3.Not(z3.fpIsInf(_model(d_out)))  # +inf only for a budget past MAX
    if d_out == math.inf:
        return z3.BoolVal(True)  # a finite value below an infinite budget
    below = exact(value) < exact(d_out)
    return z3.Or(below, z3.Not(z3.FPVal(value, _F64) == _model(d_out)))


def _pair_map_violation(d_in, d_out):
    cases = []
    for at in (0.0, d_in):
        value = filter_map(d_in, d_out, at)
        example = {"d_in": repr(d_in), "d_out": str(d_out), "at": repr(at), "map": repr(value)}
        if type(value) is not tuple or len(value) != 2:
            formula = z3.BoolVal(True)
        else:
            formula = z3.Or(*(_coordinate_violation(v, d) for v, d in zip(value, d_out)))
        cases.append((formula, lambda m, e=example: e))
    return cases


def _refused_pair_violation(d_out):
    value = filter_map(1.0, d_out, 1.0)
    example = {"d_out": str(d_out), "map": repr(value)}
    return z3.BoolVal(value != "MakeMeasurementError"), lambda m, e=example: e


def pair_map_instance() -> Obligation:
    def violation():
        cases = [
            case
            for d_out in PAIR_BUDGETS
            for d_in in (0.0, 1.0, F64_MAX)
            for case in _pair_map_violation(d_in, d_out)
        ]
        return cases + [_refused_pair_violation(d_out) for d_out in REFUSED_PAIRS]

    return Obligation(
        constructor="make_privacy_filter",
        claim=f"real make_privacy_filter (pair map) under Approximate(zCDP) at "
        f"{len(PAIR_BUDGETS)} pair budgets and d_in in {{0, 1, MAX}}: each coordinate of its map "
        "is the least f64 >= the budget's (bit for bit), and a delta above 1 is refused",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


def _map_violation(d_in, d_out):
    cases = []
    for at in (0.0, d_in):
        value = filter_map(d_in, d_out, at)
        example = {"d_in": repr(d_in), "d_out": str(d_out), "at": repr(at), "map": repr(value)}
        if not isinstance(value, float) or math.isnan(value):
            formula = z3.BoolVal(True)
        elif value == math.inf:
            formula = z3.Not(z3.fpIsInf(_model(d_out)))  # +inf only for a budget past MAX
        elif d_out == math.inf:
            formula = z3.BoolVal(True)  # a finite value below an infinite budget
        else:
            below = exact(value) < exact(d_out)
            formula = z3.Or(below, z3.Not(z3.FPVal(value, _F64) == _model(d_out)))
        cases.append((formula, lambda m, e=example: e))
    beyond = math.nextafter(d_in, math.inf)
    if beyond != math.inf:
        value = filter_map(d_in, d_out, beyond)
        example = {"d_in": repr(d_in), "d_out": str(d_out), "at": repr(beyond), "map": repr(value)}
        cases.append((z3.BoolVal(value != "FailedMapError"), lambda m, e=example: e))
    return cases


def map_instance() -> Obligation:
    def violation():
        return [case for d_out in BUDGETS for d_in in D_INS for case in _map_violation(d_in, d_out)]

    return Obligation(
        constructor="make_privacy_filter",
        claim=f"real make_privacy_filter at {len(BUDGETS)} budgets (f64 samples, +inf, "
        f"fractions) and {len(D_INS)} d_in: its map at 0 and at d_in is the least f64 >= the "
        "budget (bit for bit), and it refuses the next f64 above d_in",
        format="f64", size=1, violation=violation,
    )  # fmt: skip


def loss_lists() -> list[tuple[float, ...]]:
    """Every pair of :data:`F64_SAMPLES` and 40 seeded triples of them."""
    draw = random.Random(6)
    triples = [tuple(draw.choice(F64_SAMPLES) for _ in range(3)) for _ in range(40)]
    return list(combinations_with_replacement(F64_SAMPLES, 2)) + triples


def pair_loss_lists() -> list[tuple[tuple, ...]]:
    """Seeded pairs and triples of ``(rho, delta)`` losses: rho from :data:`F64_SAMPLES`, delta
    from small samples and ``F64_SAMPLES`` (so each coordinate can be the one that binds)."""
    draw = random.Random(20)
    small = [0.0, 5e-324, 1e-7, 3e-7, 1e-6, 0.25, 1 / 3, 0.5, 1.0]

    def loss():
        rho = draw.choice(F64_SAMPLES)
        return (rho, draw.choice(small if draw.random() < 0.7 else F64_SAMPLES))

    return [tuple(loss() for _ in range(draw.choice((2, 3)))) for _ in range(120)]


def code_budget(losses, d_out, callback: bool):
    """Run the real filter at ``d_in = 1`` with queries stating ``losses``; return, per query,
    whether it was answered and whether its function ran.  With ``callback``, the queries after
    the first are submitted from inside the first one's function.  Pair budgets build an
    Approximate(ZeroConcentratedDivergence) filter, whose queries state pair losses."""
    from certdp.core.errors import FailedFunctionError
    from certdp.core.transformation import Measurement

    space = _space()
    pair = type(d_out) is tuple
    queryable = _filter(1.0, d_out)(0.0)
    answered, ran = [None] * len(losses), [False] * len(losses)

    def submit(i):
        def function(x, i=i):
            ran[i] = True
            if callback and i == 0:
                for j in range(1, len(losses)):
                    submit(j)
            return 0.0

        measure = _measure(pair)  # the queries' measure is the filter's (see _filter)
        query = Measurement(space[0], function, space[1], measure, lambda d: losses[i])
        try:
            queryable(query)
            answered[i] = True
        except FailedFunctionError:
            answered[i] = False

    if callback:
        submit(0)
    else:
        for i in range(len(losses)):
            submit(i)
    return answered, ran


def _fits(values, d_out) -> z3.BoolRef:
    """Does the theorem's rule admit a total of ``values`` under ``d_out``: is the exact sum
    at most ``d_out`` (an infinite term fits only an infinite budget)?"""
    if d_out == math.inf:
        return z3.BoolVal(True)
    if any(v == math.inf for v in values):
        return z3.BoolVal(False)
    return sum((exact(v) for v in values), z3.RealVal(0)) <= exact(d_out)


def _pair_fits(values, d_out) -> z3.BoolRef:
    """Both coordinates fit (:func:`_fits` per coordinate)."""
    return z3.And(*(_fits([v[c] for v in values], d_out[c]) for c in (0, 1)))


def _pair_budget_violation(losses, d_out, callback):
    answered, ran = code_budget(losses, d_out, callback)
    kept, parts = [], []
    for i in range(len(losses)):
        if answered[i] is None:  # never submitted: the first query was refused (callback mode)
            continue
        fits = _pair_fits(kept + [losses[i]], d_out)
        parts.append(z3.Not(fits) if answered[i] else fits)  # answered past, or refused a fit
        if not answered[i] and ran[i]:
            parts.append(z3.BoolVal(True))  # a refused query ran
        if answered[i]:
            kept.append(losses[i])
    parts.append(z3.Not(_pair_fits(kept, d_out)))  # the answered losses past the budget
    example = {
        "losses": [repr(v) for v in losses], "d_out": str(d_out), "callback": callback,
        "answered": answered, "ran": ran,
    }  # fmt: skip
    return z3.Or(*parts), lambda m, e=example: e


def pair_budget_instance(callback: bool) -> Obligation:
    lists = [c for c in pair_loss_lists() if len(c) == 3] if callback else pair_loss_lists()

    def violation():
        return [
            _pair_budget_violation(losses, d_out, callback)
            for losses in lists
            for d_out in PAIR_CHECK_BUDGETS
        ]

    mode = "pairs, callback" if callback else "pairs, sequence"
    return Obligation(
        constructor="make_privacy_filter",
        claim=f"real make_privacy_filter ({mode}) under Approximate(zCDP) at {len(lists)} "
        "lists of (rho, delta) losses x 4 pair budgets: neither coordinate of the answered "
        "losses adds up past the budget's, a query is refused exactly when a coordinate of the "
        "exact total with it passes the budget's, and a refused query never runs",
        format="f64", size=3, violation=violation,
    )  # fmt: skip


def _budget_violation(losses, d_out, callback):
    answered, ran = code_budget(losses, d_out, callback)
    order = [0, *range(1, len(losses))]  # the order of the checks, in both modes
    kept, parts = [], []
    for i in order:
        if answered[i] is None:  # never submitted: the first query was refused (callback mode)
            continue
        fits = _fits(kept + [losses[i]], d_out)
        parts.append(z3.Not(fits) if answered[i] else fits)  # answered past, or refused a fit
        if not answered[i] and ran[i]:
            parts.append(z3.BoolVal(True))  # a refused query ran
        if answered[i]:
            kept.append(losses[i])
    if d_out != math.inf:
        if any(v == math.inf for v in kept):
            parts.append(z3.BoolVal(True))  # an infinite loss answered under a finite budget
        else:
            parts.append(sum((exact(v) for v in kept), z3.RealVal(0)) > exact(d_out))
    example = {
        "losses": [repr(v) for v in losses], "d_out": str(d_out), "callback": callback,
        "answered": answered, "ran": ran,
    }  # fmt: skip
    return z3.Or(*parts), lambda m, e=example: e


def budget_instance(callback: bool) -> Obligation:
    lists = [c for c in loss_lists() if len(c) == 3] if callback else loss_lists()

    def violation():
        return [
            _budget_violation(losses, d_out, callback)
            for losses in lists
            for d_out in CHECK_BUDGETS
        ]

    mode = "callback" if callback else "sequence"
    return Obligation(
        constructor="make_privacy_filter",
        claim=f"real make_privacy_filter ({mode}) at {len(lists)} loss lists x budgets 1, 1/3, "
        "1e300, 2^1100: the answered losses never add up past the budget, a query is refused exactly "
        "when the exact total with it passes the budget, and a refused query never runs",
        format="f64", size=3, violation=violation,
    )  # fmt: skip


def code_child_guard(pair: bool) -> tuple:
    """``(answered inside, outcomes after, outcomes after from another thread)`` of the two
    children released by a query of the real filter (the second built in a thread the query's
    function starts; see the module docstring); an outcome is ``"answered"`` or ``(error class
    name, parameter)``."""
    import threading

    from certdp.combinators.fully_adaptive_composition import make_fully_adaptive_composition
    from certdp.core.errors import FailedFunctionError
    from certdp.core.queryable import new_queryable
    from certdp.core.transformation import Measurement

    space, measure = _space(), _measure(pair)
    budget, small = ((1.0, 1e-6), (0.01, 1e-9)) if pair else (1.0, 0.01)
    queryable = _filter(1.0, budget)(0.0)

    def leaf():
        return Measurement(space[0], lambda x: 0.0, space[1], measure, lambda d: small)

    inside, made = [], []

    def ask(child, query):
        try:
            child(query)
            return True
        except FailedFunctionError:
            return False

    def in_thread():
        child = new_queryable(lambda q: q)
        inside.append(ask(child, 1))
        made.append(child)

    def function(x):
        child = make_fully_adaptive_composition(*space, measure).invoke(x)
        inside.append(ask(child, leaf()))
        thread = threading.Thread(target=in_thread)
        thread.start()
        thread.join()
        return (child, made[0])

    children = queryable(Measurement(space[0], function, space[1], measure, lambda d: small))

    def outcomes():
        found = []
        for child, query in zip(children, (leaf(), 1)):
            try:
                child(query)
                found.append("answered")
            except Exception as error:
                found.append((type(error).__name__, getattr(error, "parameter", None)))
        return tuple(found)

    after = outcomes()
    elsewhere = []
    thread = threading.Thread(target=lambda: elsewhere.append(outcomes()))
    thread.start()
    thread.join()
    return (inside == [True, True], after, elsewhere[0])


def child_guard_instance(outcome_of=None) -> Obligation:
    """The real child guard under both filters (or ``outcome_of(pair)``)."""

    def violation():
        cases = []
        for pair in (True, False):
            inside, after, elsewhere = (outcome_of or code_child_guard)(pair)
            expected = (("FailedFunctionError", "query") if pair else "answered",) * 2
            bad = not inside or after != expected or elsewhere != expected
            example = {
                "measure": "Approximate(zCDP)" if pair else "MaxDivergence",
                "answered inside": inside, "after": repr(after), "other thread": repr(elsewhere),
            }  # fmt: skip
            cases.append((z3.BoolVal(bad), lambda m, e=example: e))
        return cases

    return Obligation(
        constructor="make_privacy_filter",
        claim="child guard: a queryable a query's function builds (in its own thread, or in a "
        "thread it starts) answers while that function runs; afterwards (same or another "
        "thread) it refuses with FailedFunctionError(query) under Approximate(zCDP) and keeps "
        "answering under MaxDivergence",
        format="real", size=2, violation=violation,
    )  # fmt: skip


def obligations(names=None) -> list[Obligation]:
    if names is not None and "make_privacy_filter" not in names:
        return []
    return [
        child_guard_instance(),
        map_instance(),
        budget_instance(False),
        budget_instance(True),
        pair_map_instance(),
        pair_budget_instance(False),
        pair_budget_instance(True),
    ]


SCOPE = {
    "make_privacy_filter": Scope(
        formats=("f64", "real"),
        bound_to_code="the real make_privacy_filter is built over the real odometer at each "
        "instance, its own map is called, and its own queryable is invoked with queries whose "
        "maps state the sampled losses (in sequence, and from inside a query's function); and "
        "(child guard) a query's function builds a real odometer queryable, and a thread it starts "
        "builds a new_queryable; each is queried inside the function and afterwards (same "
        "thread, another thread)",
        instances=f"budgets: {len(F64_SAMPLES)} f64 samples (0, subnormals, 1, MAX, +inf, seeded "
        "draws) and fractions; d_in in {0, 2^-1074, 1, 3, MAX}; loss lists: every pair and 40 "
        "seeded triples of the samples under budgets 1, 1/3, 1e300, 2^1100; under "
        "Approximate(zCDP): pair budgets (every third budget sample x 7 deltas in [0, 1]) for "
        "the map, 4 deltas above 1 refused, 120 seeded lists of 2-3 (rho, delta) losses under "
        "(1, 1e-6), (1/3, 1/3), (1e300, 1), (2^1100, 0.5)",
        bit_precise=(
            "the map's value against z3's rounding toward +inf of the budget, bit for bit (per "
            "coordinate for pairs)",
        ),
        abstractions=(
            "sums of losses compared with the budget as exact reals, per coordinate for pairs "
            "(the code compares the exact rational total, so the refusal rule has no rounding "
            "to model)",
        ),
        assumed=(
            "the filter theorems (a property of the distributions of the interaction; "
            "make_privacy_filter.tex); threads beyond the callback and child-guard instances",
        ),
    )
}

MODELLED = {
    "make_privacy_filter": [
        "combinators/privacy_filter/make_privacy_filter.py",
        "combinators/_odometer/odometer.py",
        "combinators/_compose/compose.py",
        "numeric/floats.py",
        "core/queryable.py",
    ]
}
