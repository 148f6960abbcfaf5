"""The compositors' public read-only accessors (``CompositorQueryable.state`` and
``OdometerQueryable.state``) and the Context reading its shares through them."""

from __future__ import annotations

import threading
from fractions import Fraction

import pytest

import certdp.prelude as dp
from certdp.combinators._context.context import _compositor_state
from certdp.combinators._odometer.odometer import OdometerState
from certdp.combinators.adaptive_composition.make_adaptive_composition import (
    CompositorQueryable,
    CompositorState,
)
from certdp.core.errors import DPError, FailedFunctionError
from certdp.core.queryable import Queryable

ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")
PURE, ZCDP = dp.max_divergence(), dp.zero_concentrated_divergence()
APPROX_ZCDP = dp.approximate(ZCDP)


@pytest.fixture(autouse=True)
def _contrib():
    """This branch changes the compositors' code; the lead re-vets after merging."""
    dp.enable_features("contrib")
    yield
    dp.disable_features("contrib")


def stub(loss, measure, function=lambda x: x):
    return dp.Measurement(ATOM[0], function, ATOM[1], measure, lambda d_in: loss)


@pytest.mark.parametrize(
    "measure, d_mids",
    [(PURE, [1.0, 0.5, 0.25]), (APPROX_ZCDP, [(0.5, 1e-7), (0.25, 0.0), (0.125, 1e-9)])],
)
def test_the_adaptive_state_counts_charges_and_reports_budgets_and_d_in(measure, d_mids):
    compositor = dp.c.make_adaptive_composition(*ATOM, measure, 2.0, d_mids)
    queryable = compositor(1.5)
    assert type(queryable) is CompositorQueryable
    assert queryable.state() == CompositorState(0, tuple(d_mids), 2.0)
    queryable(stub(d_mids[0], measure))
    assert queryable.state().charged == 1
    with pytest.raises(FailedFunctionError):  # over its budget: refused, not charged
        queryable(stub(d_mids[0], measure))
    assert queryable.state().charged == 1
    queryable(stub(d_mids[1], measure))
    state = queryable.state()
    assert state == (2, tuple(d_mids), 2.0)
    assert type(state.budgets) is tuple and state.budgets == tuple(d_mids)


def test_the_adaptive_state_is_read_from_inside_a_query_without_waiting():
    compositor = dp.c.make_adaptive_composition(*ATOM, PURE, 1.0, [1.0, 1.0])
    queryable = compositor(0.0)
    seen = []

    def function(x):
        seen.append(queryable.state().charged)  # the query is charged before it runs
        return x

    queryable(stub(1.0, PURE, function))
    assert seen == [1]


def test_a_query_that_fails_half_way_stays_charged_in_the_state():
    compositor = dp.c.make_adaptive_composition(*ATOM, PURE, 1.0, [1.0, 1.0])
    queryable = compositor(0.0)

    def failing(x):
        raise RuntimeError("half-way")

    with pytest.raises(FailedFunctionError):
        queryable(stub(1.0, PURE, failing))
    assert queryable.state().charged == 1


def test_the_state_never_exceeds_the_count_of_budgets_under_threads():
    n = 5
    compositor = dp.c.make_adaptive_composition(*ATOM, PURE, 1.0, [1.0] * n)
    queryable = compositor(0.0)
    readings, refused = [], []

    def worker():
        for _ in range(4):
            readings.append(queryable.state().charged)
            try:
                queryable(stub(1.0, PURE))
            except DPError as error:
                refused.append(type(error))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert queryable.state().charged == n
    assert all(0 <= r <= n for r in readings)
    assert len(refused) == 8 * 4 - n and all(issubclass(e, FailedFunctionError) for e in refused)


@pytest.mark.parametrize("budget", [None, 1.0])
def test_the_odometer_state_reports_charges_budget_and_exact_total(budget):
    odometer = dp.c.make_fully_adaptive_composition(*ATOM, PURE)
    if budget is None:
        queryable = odometer(0.0)
    else:
        queryable = dp.c.make_privacy_filter(odometer, 1.0, budget)(0.0)
    assert queryable.state() == OdometerState(
        0, None if budget is None else (1.0, 1.0), (None if budget is None else Fraction(0))
    )
    queryable(stub(0.1, PURE))
    queryable(stub(0.2, PURE))
    state = queryable.state()
    assert state.charged == 2
    if budget is None:
        assert state.spent is None and state.budget is None
    else:
        assert state.spent == Fraction(0.1) + Fraction(0.2)  # exact, not rounded
        with pytest.raises(FailedFunctionError):
            queryable(stub(0.75, PURE))
        assert queryable.state().charged == 2


def test_the_odometer_state_is_read_from_inside_a_query_without_deadlock():
    odometer = dp.c.make_fully_adaptive_composition(*ATOM, PURE)
    queryable = dp.c.make_privacy_filter(odometer, 1.0, 1.0)(0.0)
    seen = []

    def function(x):
        seen.append(queryable.state())
        return x

    queryable(stub(0.5, PURE, function))
    assert seen == [OdometerState(1, (1.0, 1.0), Fraction(1, 2))]


def test_the_context_reads_its_shares_through_the_accessor():
    context = dp.Context.compositor(
        data=[1, 2],
        privacy_unit=dp.unit_of(contributions=1),
        privacy_loss=dp.loss_of(epsilon=1.0),
        split_evenly_over=2,
    )
    state = _compositor_state(context._queryable)
    assert state.charged == 0 and state.budgets == tuple(context.d_mids)
    context.query().clamp((0, 5)).sum().laplace().release()
    assert _compositor_state(context._queryable).charged == 1
    assert context.d_mids_consumed == [state.budgets[0]]


def test_a_queryable_closing_over_lookalike_cells_is_not_a_compositor():
    spent, budgets, d_in = [0], (1.0,), 1.0

    def transition(query, is_internal):
        spent[0] += 1  # the cells the former reader looked for
        return (budgets, d_in)

    fake = Queryable(transition)
    with pytest.raises(DPError) as info:
        _compositor_state(fake)
    assert info.value.parameter == "queryable"
    compositor = dp.c.make_adaptive_composition(*ATOM, PURE, 1.0, [1.0])
    real = compositor(0.0)
    real.state = lambda: CompositorState(0, (100.0,), 1.0)  # an instance attribute is not read
    assert _compositor_state(real).budgets == (1.0,)
