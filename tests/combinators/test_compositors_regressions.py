"""Regressions: the referee's counterexamples against branch `compositors` (queryable, _compose,
make_composition, make_adaptive_composition), each kept with the referee's assertion, and the
tests of the fixes.  They all failed at 560c5e3 (12 still failed at 66a00da); the fixes are in
queryable.py, _compose/compose.py, composition/, adaptive_composition/.
"""

from __future__ import annotations

import sys
import threading

import pytest

import certdp.prelude as dp
from certdp.core import features, switches
from certdp.core.errors import DPError, FailedFunctionError, MeasureMismatchError
from certdp.core.queryable import Queryable

from .forged import forged_subclass

ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")
APPROX_PURE = dp.approximate(dp.max_divergence())
APPROX_ZCDP = dp.approximate(dp.zero_concentrated_divergence())


def _forced(obj, name, value):
    """The public write is refused (domains/metrics/measures are immutable); the test then
    forces it past that hypothesis (object.__setattr__) to check the defence behind it."""
    with pytest.raises(dp.DPError, match="immutable"):
        setattr(obj, name, value)
    object.__setattr__(obj, name, value)


@pytest.fixture(autouse=True)
def _contrib_and_clean_switches():
    saved_contracts, saved_features = switches.contracts.enabled, set(features._enabled)
    switches.contracts.enabled = False
    features._enabled.clear()
    dp.enable_features("contrib")
    yield
    switches.contracts.enabled = saved_contracts
    features._enabled.clear()
    features._enabled.update(saved_features)


def stub(loss, measure):
    return dp.Measurement(ATOM[0], lambda x: x, ATOM[1], measure, lambda d_in: loss)


# --- make_composition / contract ------------------------------------------------------------


def test_contracts_on_approximate_dp_composition_map_returns_the_pair():
    """With contracts enabled (`dp.enable_contracts()`), the runtime postcondition of
    make_composition calls contract._closed_form, which does `math.isinf(loss)` on every leaf
    loss: for Approximate(MaxDivergence) parts the loss is a tuple and the map raises an
    untyped `TypeError: must be real number, not tuple` instead of returning (eps, delta).
    Every approximate composition is unusable with contracts on (the contract's precondition
    admits these measures)."""
    inner = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*ATOM, 1.0)), 1e-6)
    dp.enable_contracts()
    composed = dp.c.make_composition([inner, inner])
    epsilon, delta = composed.map(1.0)
    assert delta >= 2e-6 and epsilon > 0


def test_contracts_on_approximate_zcdp_composition_check():
    """Same defect for Approximate(ZeroConcentratedDivergence) parts, through `check`."""
    dp.enable_contracts()
    composed = dp.c.make_composition([stub((0.5, 1e-6), APPROX_ZCDP)] * 2)
    assert composed.check(1.0, (1.0, 2e-6)) is True


def test_a_list_subclass_that_changes_between_iterations_is_a_typed_error():
    """make_composition checks `all(isinstance(m, Measurement) for m in measurements)` on one
    iteration and then uses `list(measurements)` (a second iteration): a list subclass whose
    iterator changes passes the check and reaches `first.output_measure` on a float, raising
    an untyped AttributeError (rule: bad input -> typed DPError)."""
    lap = dp.m.make_laplace(*ATOM, 1.0)

    class Shifty(list):
        calls = 0

        def __iter__(self):
            Shifty.calls += 1
            return list.__iter__(self) if Shifty.calls == 1 else iter([1.0])

    with pytest.raises(DPError):
        dp.c.make_composition(Shifty([lap]))


def test_numpy_scalar_losses_compose_as_in_opendp():
    """OpenDP 0.16 composes user measurements whose maps return np.float64 (map 0.5 + 0.5 =
    1.0); certdp's _compose._term requires the exact type float and refuses np.float64 with a
    FailedMapError, although certdp's own boundary (exact_scalar) accepts NumPy scalars for
    d_in/d_out.  Parity break for ported code (not a soundness issue)."""
    np = pytest.importorskip("numpy")
    part = stub(np.float64(0.5), dp.max_divergence())
    assert dp.c.make_composition([part, part]).map(1.0) == 1.0


def test_make_composition_accepts_an_iterable_as_opendp_does():
    """OpenDP 0.16's make_composition accepts any iterable of measurements (a generator gives
    map 2.0 for two Laplace(1)); certdp refuses everything but list/tuple.  Parity only."""
    lap = dp.m.make_laplace(*ATOM, 1.0)
    assert dp.c.make_composition(m for m in [lap, lap]).map(1.0) == 2.0


# --- Queryable ----------------------------------------------------------------------------


def test_an_exception_whose_str_raises_still_reaches_the_caller_typed():
    """queryable.tex item 5: 'if e is another Exception, the query raises FailedFunctionError
    (parameter query) caused by e'.  The wrap clause formats f"...{error}", which runs
    e.__str__; if that raises, a RuntimeError (untyped) escapes instead."""

    class Hostile(Exception):
        def __str__(self):
            raise RuntimeError("no text")

    def transition(query, is_internal):
        raise Hostile()

    with pytest.raises(FailedFunctionError) as info:
        Queryable(transition)(1)
    assert isinstance(info.value.__cause__, Hostile)


def test_a_one_argument_transition_works_as_in_opendp():
    """OpenDP 0.16's new_queryable accepts a transition of ONE parameter (its wrapper checks
    the signature: 'the indicator that a query is internal is oftentimes not needed'):
    `odp.new_queryable(lambda q: q + 1, Q=int, A=int)(3) == 4`.  certdp always calls
    transition(query, is_internal), so ported code fails with FailedFunctionError."""
    qbl = dp.new_queryable(lambda q: q + 1, Q=int, A=int)
    assert qbl(3) == 4


def test_an_exception_between_own_and_try_does_not_wedge_the_queryable():
    """Proof invariant: 'o equals the identifier of T only while T holds L'.  `_owner = me`
    and `_HOOKS.set` run BEFORE the try/finally that resets `_owner`; an asynchronous
    exception there (KeyboardInterrupt from a signal, a trace/profile hook; simulated with
    sys.settrace) leaves `_owner` set after the lock is released, and every later query from
    that thread is refused as 're-entrant' for ever."""
    import certdp.core.queryable as module

    lines = open(module.__file__).read().splitlines()
    qbl = Queryable(lambda q, i: q)

    class Interrupt(BaseException):
        pass

    def tracer(frame, event, arg):
        if frame.f_code.co_name != "_answer":
            return None

        def local(frame, event, arg):
            if event == "line" and "label: inherit" in lines[frame.f_lineno - 1]:
                sys.settrace(None)
                frame.f_trace = None
                raise Interrupt()
            return local

        return local

    sys.settrace(tracer)
    try:
        with pytest.raises(Interrupt):
            qbl(1)
    finally:
        sys.settrace(None)
    assert qbl._owner is None
    assert qbl(2) == 2


# --- make_adaptive_composition --------------------------------------------------------------


def test_a_query_cannot_replace_the_budget_comparison_through_its_measure():
    """make_adaptive_composition.tex, proof of Lemma ledger: 'Measurement.check is called on the
    class, so a query object cannot replace the comparison'.  But Measurement.check compares
    with `self.output_measure.ordered(...)`, looked up on the QUERY's measure object; an
    instance attribute `ordered` (a plain assignment, no subclass, so `_same` still accepts
    the measure) wins over the staticmethod.  An honest Laplace measurement (map 10 at d_in 1,
    a valid measurement) is then accepted under a budget of 0.1: the total loss exceeds
    sum(d_mids) = 0.1."""
    laplace = dp.m.make_laplace(*ATOM, 0.1)
    assert laplace.map(1.0) >= 10.0
    lax = dp.max_divergence()
    _forced(lax, "ordered", lambda d_a, d_b: True)
    greedy = dp.Measurement(ATOM[0], laplace.function, ATOM[1], lax, laplace.privacy_map)
    queryable = dp.c.make_adaptive_composition(*ATOM, dp.max_divergence(), 1.0, [0.1])(0.0)
    with pytest.raises(DPError):
        queryable(greedy)


def test_the_same_bypass_under_approximate_dp():
    """Same as above under Approximate(MaxDivergence): a query whose honest map is
    (10.0, 0.5) is accepted under the budget (0.1, 1e-9)."""
    lax = dp.approximate(dp.max_divergence())
    _forced(lax, "ordered", lambda d_a, d_b: True)
    greedy = stub((10.0, 0.5), lax)
    queryable = dp.c.make_adaptive_composition(*ATOM, APPROX_PURE, 1.0, [(0.1, 1e-9)])(0.0)
    with pytest.raises(DPError):
        queryable(greedy)


def test_sequentiality_under_approximate_zcdp_survives_a_callback():
    """make_adaptive_composition.tex, 'The view': under Approximate(zCDP) 'every query answered
    by a queryable of A_i's release precedes the acceptance of A_{i+1}'.  Single thread, no
    race: the analyst submits U to the child queryable Q1 (released by query 1); the guard
    passes (s = 1); U's function (analyst code) then submits A2 to the parent compositor,
    which is a different queryable, not locked, and accepts and releases it (s = 2) while
    Q1's query U is still running, so U's remaining computation can depend on A2's release:
    an interleaving that only concurrent composition (not proven for approximate zCDP, and
    refused by the code's own rule) would cover.  Correct: the parent refuses a query while a
    query of an earlier release is being answered (or U never sees A2's release).  (OpenDP
    0.16 has the same hole.)"""
    outer = dp.c.make_adaptive_composition(*ATOM, APPROX_ZCDP, 1.0, [(0.5, 1e-6)] * 2)(0.0)
    inner = dp.c.make_adaptive_composition(*ATOM, APPROX_ZCDP, 1.0, [(0.25, 5e-7)] * 2)
    child = outer(inner)
    side = {}

    def analyst_callback(x):
        try:
            side["A2"] = outer(stub((0.5, 1e-6), APPROX_ZCDP))
        except DPError as refused:
            side["A2"] = refused
        return 0.0  # the statistic U would choose with side["A2"] in hand

    child(dp.Measurement(ATOM[0], analyst_callback, ATOM[1], APPROX_ZCDP, lambda d: (0.25, 5e-7)))
    assert isinstance(side["A2"], DPError), "A2 was accepted while the child was answering U"


def test_make_composition_locks_earlier_interactive_parts_under_approximate_zcdp():
    """OpenDP 0.16's make_composition (rust non_adaptive/mod.rs, `require_sequentiality`)
    wraps the queryables spawned by each part under Approximate(zCDP) so that only the most
    recent part's releases may be queried.  certdp's make_composition has no such rule and its
    proof (product of independent releases) does not cover interactive releases: two
    approximate-zCDP compositors composed with make_composition can be queried interleaved
    (q1, q2, q1): concurrent composition of approximate zCDP, which neither certdp's adaptive
    compositor nor OpenDP allows."""
    inner = dp.c.make_adaptive_composition(*ATOM, APPROX_ZCDP, 1.0, [(0.25, 5e-7)] * 2)
    q1, q2 = dp.c.make_composition([inner, inner])(0.0)
    try:
        q1(stub((0.25, 5e-7), APPROX_ZCDP))
    except DPError:
        pass  # OpenDP refuses already here: the first part is no longer the most recent
    q2(stub((0.25, 5e-7), APPROX_ZCDP))
    with pytest.raises(DPError):
        q1(stub((0.25, 5e-7), APPROX_ZCDP))


def test_make_composition_same_metric_check_is_not_decided_by_the_part():
    """make_composition.tex: 'The code raises MakeMeasurementError naming measurements when
    one [precondition] fails' (shared input metric).  The check is `other.input_metric !=
    first.input_metric` with the LATER part on the left, so the part's own metric object
    decides (its __ne__).  A part on a different metric (here one whose unit is 1000 times
    the absolute distance, so its honest map at d_in is 1000 times smaller) whose metric says
    'not unequal' is composed and the composed map under-reports.  make_adaptive_composition
    already guards against this (`_same`: 'a query's object is never asked to judge
    itself'); make_composition does not."""
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")
    absolute = dp.absolute_distance(T="f64")

    Milli = forged_subclass(  # absolute distance counted in thousandths (a different metric)
        type(absolute),
        "Milli",
        {"__ne__": lambda self, other: False, "__hash__": type(absolute).__hash__},
    )
    milli = Milli.__new__(Milli)
    milli.__dict__.update(absolute.__dict__)
    honest = dp.m.make_laplace(*ATOM, 1.0)
    part = dp.Measurement(ATOM[0], honest.function, milli, dp.max_divergence(), lambda d: d / 1000)
    with pytest.raises(DPError):
        dp.c.make_composition([honest, part])


# --- tests of the fixes beyond the counterexamples ----------------------------------------


def test_the_composed_measure_is_a_fresh_object_so_a_part_cannot_supply_its_order():
    """make_composition's output measure is a new object of the parts' class: an ``ordered``
    set on the first part's measure object does not decide the composed measurement's check."""
    lax = dp.max_divergence()
    _forced(lax, "ordered", lambda d_a, d_b: True)
    composed = dp.c.make_composition([stub(10.0, lax), stub(10.0, dp.max_divergence())])
    assert composed.output_measure is not lax and "ordered" not in vars(composed.output_measure)
    assert composed.check(1.0, 0.1) is False
    assert composed.check(1.0, 20.0) is True


def test_a_hostile_first_part_cannot_vouch_for_a_later_part_of_another_class():
    """The first part decides equality, but only between objects of one class: a first part
    whose metric class says 'equal' to everything still refuses a later part of another class."""
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")
    absolute = dp.absolute_distance(T="f64")

    Agreeable = forged_subclass(
        type(absolute),
        "Agreeable",
        {"__eq__": lambda self, other: True, "__hash__": type(absolute).__hash__},
    )
    agreeable = Agreeable.__new__(Agreeable)
    agreeable.__dict__.update(absolute.__dict__)
    honest = dp.m.make_laplace(*ATOM, 1.0)
    first = dp.Measurement(ATOM[0], honest.function, agreeable, dp.max_divergence(), lambda d: d)
    with pytest.raises(DPError, match="one input metric"):
        dp.c.make_composition([first, honest])


def test_an_endless_iterable_is_refused_typed_not_a_hang(monkeypatch):
    import importlib
    import itertools

    module = importlib.import_module("certdp.combinators.composition.make_composition")
    lap = dp.m.make_laplace(*ATOM, 1.0)
    monkeypatch.setattr(module, "MAX_LEAVES", 8)  # the cap is read at call time
    with pytest.raises(DPError, match="at most 8"):
        dp.c.make_composition(itertools.repeat(lap))


def test_an_iterable_that_raises_while_read_is_a_typed_error():
    def broken():
        yield dp.m.make_laplace(*ATOM, 1.0)
        raise ValueError("no more")

    with pytest.raises(DPError, match="non-empty iterable"):
        dp.c.make_composition(broken())


def test_with_contracts_on_an_iterable_other_than_a_list_is_refused_typed():
    lap = dp.m.make_laplace(*ATOM, 1.0)
    dp.enable_contracts()
    with pytest.raises(DPError):
        dp.c.make_composition(m for m in [lap, lap])


def test_a_guard_end_runs_after_the_transition_however_it_ends():
    from certdp.core.queryable import guarded

    events = []

    def hook():
        events.append("hook")
        return lambda: events.append("end")

    with guarded(hook):
        ok = Queryable(lambda q, i: events.append(("t", q)) or q)
        bad = Queryable(lambda q, i: 1 / 0)
    assert ok(3) == 3
    assert events == ["hook", ("t", 3), "end"]
    events.clear()
    with pytest.raises(FailedFunctionError):
        bad(1)
    assert events == ["hook", "end"]


def test_the_compositor_refuses_a_query_from_another_thread_while_a_child_answers():
    """Under Approximate(zCDP) a query of a spawned queryable, running in one thread, keeps the
    compositor from accepting a query submitted from another thread until it ends."""
    outer = dp.c.make_adaptive_composition(*ATOM, APPROX_ZCDP, 1.0, [(0.5, 1e-6)] * 2)(0.0)
    inner = dp.c.make_adaptive_composition(*ATOM, APPROX_ZCDP, 1.0, [(0.25, 5e-7)] * 2)
    child = outer(inner)
    inside, release, seen = threading.Event(), threading.Event(), {}

    def slow(x):
        inside.set()
        release.wait(10)
        return x

    def other_thread():
        inside.wait(10)
        try:
            seen["A2"] = outer(stub((0.5, 1e-6), APPROX_ZCDP))
        except DPError as refused:
            seen["A2"] = refused
        release.set()

    worker = threading.Thread(target=other_thread)
    worker.start()
    child(dp.Measurement(ATOM[0], slow, ATOM[1], APPROX_ZCDP, lambda d: (0.25, 5e-7)))
    worker.join(10)
    assert isinstance(seen["A2"], DPError) and "sequentiality" in str(seen["A2"])
    # once the child's query has ended, the compositor accepts the next query
    assert outer(stub((0.5, 1e-6), APPROX_ZCDP)) == 0.0
    with pytest.raises(DPError, match="sequentiality"):
        child(stub((0.25, 5e-7), APPROX_ZCDP))


def test_pure_dp_children_do_not_block_the_compositor():
    """The busy rule is the sequential rule: under pure DP a callback into the compositor
    from a child's query is answered (concurrent composition)."""
    outer = dp.c.make_adaptive_composition(*ATOM, dp.max_divergence(), 1.0, [0.5, 0.5])(0.0)
    inner = dp.c.make_adaptive_composition(*ATOM, dp.max_divergence(), 1.0, [0.25, 0.25])
    child = outer(inner)
    side = {}

    def callback(x):
        side["A2"] = outer(stub(0.5, dp.max_divergence()))
        return x

    child(dp.Measurement(ATOM[0], callback, ATOM[1], dp.max_divergence(), lambda d: 0.25))
    assert side["A2"] == 0.0


# --- comp-fix2: one shared same-space check (_compose/same.py), the re-referee's findings ------


def _lying_laplace():
    """An honest Laplace on atom_domain(bounds=(0, 1)) whose domain object claims (through an
    instance `_key`) to be the unbounded domain: answers on 0.5, raises on 1.4, so epsilon is
    infinite on the unbounded domain."""
    unbounded = dp.atom_domain(T="f64", nan=False)
    bounded = dp.atom_domain(bounds=(0.0, 1.0), nan=False)
    laplace = dp.m.make_laplace(bounded, ATOM[1], 1.0)
    _forced(bounded, "_key", lambda: unbounded._key())
    return laplace


def test_make_composition_refuses_a_part_whose_domain_key_lies():
    honest = dp.m.make_laplace(*ATOM, 1.0)
    with pytest.raises(dp.MakeMeasurementError, match="one input domain"):
        dp.c.make_composition([honest, _lying_laplace()])


def test_the_adaptive_compositor_refuses_a_query_whose_domain_key_lies():
    comp = dp.c.make_adaptive_composition(*ATOM, dp.max_divergence(), d_in=1.0, d_mids=[1.0])
    with pytest.raises(dp.DomainMismatchError):
        comp(0.5)(_lying_laplace())


def test_every_compositor_uses_the_one_shared_same_space_check():
    import importlib

    from certdp.combinators._compose import same_space

    for name in (
        "certdp.combinators.composition.make_composition",
        "certdp.combinators.adaptive_composition.make_adaptive_composition",
        "certdp.combinators._odometer.odometer",
    ):
        assert importlib.import_module(name)._same is same_space, name


def test_same_space_is_class_exact_below_the_top_level():
    dp.enable_features("honest-but-curious")  # user classes below (domains.tex, "user classes")
    from certdp.combinators._compose import same_space

    Judge = forged_subclass(
        type(dp.max_divergence()),
        "Judge",
        {"__eq__": lambda self, other: True, "__hash__": type(dp.max_divergence()).__hash__},
    )
    assert same_space(APPROX_PURE, dp.approximate(dp.max_divergence()))
    # approximate() itself refuses a subclass (exact types, as OpenDP); one built around it
    # must still not pass as the same space
    with pytest.raises(MeasureMismatchError):
        dp.approximate(Judge())
    hostile = object.__new__(type(APPROX_PURE))
    object.__setattr__(hostile, "measure", Judge())
    assert not same_space(APPROX_PURE, hostile)
    assert same_space(
        dp.vector_domain(ATOM[0]), dp.vector_domain(dp.atom_domain(T="f64", nan=False))
    )
    assert not same_space(dp.vector_domain(ATOM[0]), dp.vector_domain(dp.atom_domain(T="f32")))


def test_a_numpy_query_loss_is_compared_exactly_by_the_adaptive_compositor():
    import numpy as np

    comp = dp.c.make_adaptive_composition(*ATOM, dp.max_divergence(), d_in=1.0, d_mids=[0.5])
    assert comp(3.0)(stub(np.float64(0.5), dp.max_divergence())) == 3.0
    pair = dp.c.make_adaptive_composition(*ATOM, APPROX_PURE, d_in=1.0, d_mids=[(0.5, 1e-6)] * 2)
    qbl = pair(3.0)
    assert qbl(stub((np.float64(0.5), np.float32(0.0)), APPROX_PURE)) == 3.0
    # just above the budget, in the NumPy value's exact binary value: refused
    with pytest.raises(FailedFunctionError, match="insufficient budget"):
        qbl(stub((np.nextafter(np.float64(0.5), 1.0), 0.0), APPROX_PURE))


def test_a_guard_end_that_raises_does_not_skip_the_other_ends():
    from certdp.core.queryable import guarded

    calls = []

    def first_hook():
        return lambda: calls.append("first end")

    def second_hook():
        def end():
            calls.append("second end")
            raise ValueError("end failed")

        return end

    with guarded(first_hook), guarded(second_hook):
        q = Queryable(lambda query, internal: query)
    with pytest.raises(FailedFunctionError, match="end failed"):
        q(1)
    assert calls == ["second end", "first end"]
    assert q._owner is None


def test_a_hook_returning_a_non_callable_is_refused_typed_and_kept_ends_run():
    from certdp.core.queryable import guarded

    calls = []
    with guarded(lambda: lambda: calls.append("end")), guarded(lambda: 1):
        q = Queryable(lambda query, internal: calls.append("transition"))
    with pytest.raises(FailedFunctionError, match="None or a callable"):
        q(1)
    assert calls == ["end"]


class _Interrupt(BaseException):
    pass


@pytest.mark.parametrize("line_text", ["self._owner = None", "if token is not None"])
def test_an_interrupt_in_the_finally_clauses_does_not_wedge_the_queryable(line_text):
    """An interrupt (simulated with sys.settrace) at a statement of the inner finally clause may
    leave `_owner` stale; the re-entry test also reads the lock, so the thread's next query is
    answered (queryable.tex, item Re-entry)."""
    import inspect

    code = Queryable._answer.__code__
    lines, first = inspect.getsourcelines(code)
    target = first + next(i for i, text in enumerate(lines) if line_text in text)
    fired = []

    def local(frame, event, arg):
        if event == "line" and frame.f_lineno == target and not fired:
            fired.append(1)
            raise _Interrupt
        return local

    q = Queryable(lambda query, internal: query + 1)
    sys.settrace(lambda frame, event, arg: local if frame.f_code is code else None)
    try:
        with pytest.raises(_Interrupt):
            q(1)
    finally:
        sys.settrace(None)
    assert fired
    assert q(2) == 3
