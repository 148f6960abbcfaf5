"""Regressions for referee-ctx's findings on the Context (918ca13): each counterexample with the
referee's own assertion, and the cases around it (typed refusals of a busy Context, a raising
privacy map, the shares read from the compositor, NumPy scalars and Fractions as OpenDP takes
them)."""

from __future__ import annotations

import threading
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.combinators._context import (
    BudgetExhaustedError,
    ContextArgumentError,
    ContextBusyError,
    split_budget,
)
from certdp.core.errors import DPError, FailedFunctionError
from certdp.core.transformation import Measurement


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _context(**split):
    return dp.Context.compositor(
        data=list(range(10)),
        privacy_unit=dp.unit_of(contributions=1),
        privacy_loss=dp.loss_of(epsilon=1.0),
        **(split or {"split_evenly_over": 3}),
    )


def _user(context, function, privacy_map):
    accountant = context.accountant
    return Measurement(
        accountant.input_domain,
        function,
        accountant.input_metric,
        accountant.output_measure,
        privacy_map,
    )


# -- the referee's counterexamples (assertions unchanged) ---------------------------------------


def test_query_from_another_thread_inside_a_callback_is_refused_not_blocked():
    context = _context()
    base = context.query().count().laplace(scale=10.0).resolve()
    seen = []

    def helper():
        try:
            seen.append(context(base))
        except Exception as error:  # noqa: BLE001 - we record what reached the helper
            seen.append(error)

    def function(_data):
        thread = threading.Thread(target=helper, daemon=True)
        thread.start()
        thread.join(3.0)
        return "finished" if not thread.is_alive() else "blocked"

    assert context(_user(context, function, lambda d_in: 0.1)) == "finished"
    assert len(seen) == 1 and isinstance(seen[0], DPError)
    assert isinstance(seen[0], ContextBusyError) and isinstance(seen[0], FailedFunctionError)
    assert context.remaining_privacy_loss() == context.d_mids and len(context.d_mids) == 2


def test_precheck_turns_a_raising_map_into_a_typed_error():
    context = _context()

    def bad_map(_d_in):
        raise RuntimeError("map failed")

    query = _user(context, lambda data: 0, bad_map)
    with pytest.raises(DPError):
        context(query)


def test_remaining_privacy_loss_follows_the_compositor_after_direct_queryable_use():
    context = _context(split_by_weights=[1, 3])
    small = context.query().count().laplace().resolve()
    context.queryable(small)
    assert context.remaining_privacy_loss() == [0.75]


def test_reentrant_refusal_keeps_context_and_compositor_in_step():
    context = _context(split_by_weights=[1, 1, 8])
    base = context.query().count().laplace(scale=100.0).resolve()
    inner = []

    def function(_data):
        try:
            context(base)
        except DPError as error:
            inner.append(error)
        return 0

    context(_user(context, function, lambda d_in: 0.05))
    assert len(inner) == 1  # the nested submission was refused, nothing released
    context.query().count().laplace().release()


# -- around them --------------------------------------------------------------------------------


def test_a_raising_map_gives_the_compositors_error_class_and_charges_nothing():
    context = _context()

    def bad_map(_d_in):
        raise RuntimeError("map failed")

    query = _user(context, lambda data: 0, bad_map)
    with pytest.raises(FailedFunctionError, match="RuntimeError: map failed") as through_context:
        context(query)
    with pytest.raises(FailedFunctionError, match="RuntimeError: map failed") as direct:
        context.queryable(query)
    assert type(through_context.value) is type(direct.value)
    assert isinstance(through_context.value.__cause__, RuntimeError)
    assert through_context.value.parameter == "query"
    assert len(context.remaining_privacy_loss()) == 3  # neither path charged a share


def test_the_busy_refusal_releases_nothing_and_the_context_answers_afterwards():
    context = _context()
    runs = []

    def function(_data):
        with pytest.raises(ContextBusyError, match="one query at a time"):
            context(_user(context, lambda data: runs.append("inner"), lambda d_in: 0.0))
        # reading the budget from inside a query neither blocks nor is refused
        assert context.remaining_privacy_loss() == context.d_mids
        return "outer"

    assert context(_user(context, function, lambda d_in: 0.1)) == "outer"
    assert runs == []
    assert len(context.current_privacy_loss()) == 1
    context(_user(context, lambda data: "next", lambda d_in: 0.1))  # not busy any more
    assert len(context.current_privacy_loss()) == 2


def test_the_filter_context_refuses_a_query_from_inside_a_query():
    context = dp.Context.compositor(
        list(range(10)), dp.unit_of(contributions=1), dp.loss_of(epsilon=1.0)
    )

    def function(_data):
        with pytest.raises(ContextBusyError):
            context(_user(context, lambda data: 0, lambda d_in: 0.1))
        return "outer"

    assert context(_user(context, function, lambda d_in: 0.2)) == "outer"
    assert context.current_privacy_loss() == 0.2  # the refused inner query cost nothing


def test_shares_are_the_compositors_own_after_any_mix_of_paths():
    context = _context(split_by_weights=[1, 1, 2])
    shares = split_budget(1.0, [1, 1, 2])
    assert context.d_mids == shares and context.d_mids_consumed == []
    context.queryable(_user(context, lambda data: 0, lambda d_in: 0.25))
    assert context.current_privacy_loss() == shares[:1]
    with pytest.raises(BudgetExhaustedError, match=r"left: \[0.25, 0.5\]"):
        context(_user(context, lambda data: 0, lambda d_in: 0.5))
    context(_user(context, lambda data: 0, lambda d_in: 0.25))
    assert context.query()._d_out == 0.5  # the compositor's third budget
    context.d_mids[0] = 100.0  # a copy: the compositor's budgets are not the Context's to change
    assert context.remaining_privacy_loss() == [0.5]
    context.queryable(_user(context, lambda data: 0, lambda d_in: 0.5))
    assert context.remaining_privacy_loss() == [] and context.current_privacy_loss() == shares
    with pytest.raises(BudgetExhaustedError, match="nothing is left"):
        context(_user(context, lambda data: 0, lambda d_in: 0.0))


def test_a_context_split_over_a_queryable_that_is_not_a_compositor_is_refused():
    filter_context = dp.Context.compositor(
        [1.0], dp.unit_of(contributions=1), dp.loss_of(epsilon=1.0)
    )
    with pytest.raises(ContextArgumentError) as error:
        dp.Context(filter_context.accountant, filter_context.queryable, 1, d_mids=[0.5])
    assert error.value.parameter == "queryable"


# -- NumPy scalars and Fractions ------------------------------------------------------------------


def test_unit_of_and_loss_of_take_numpy_scalars_as_their_exact_values():
    assert dp.unit_of(contributions=np.int64(2)) == (dp.symmetric_distance(), 2)
    assert type(dp.unit_of(contributions=np.int32(2))[1]) is int
    assert dp.unit_of(l1=np.float64(0.1)) == (dp.l1_distance(T="f64"), 0.1)
    assert type(dp.unit_of(l1=np.float64(0.1))[1]) is float
    assert dp.unit_of(absolute=np.float32(0.5))[1] == 0.5
    assert dp.loss_of(epsilon=np.float64(1.0)) == (dp.max_divergence(), 1.0)
    measure, (epsilon, delta) = dp.loss_of(epsilon=np.float64(0.5), delta=np.float64(1e-7))
    assert (epsilon, delta) == (0.5, 1e-7) and type(delta) is float
    assert dp.loss_of(rho=np.int64(1)) == (dp.zero_concentrated_divergence(), 1)


def test_fractions_round_to_the_safe_side():
    # a distance between neighbours rounds up, a budget rounds down; an integer stays an int
    assert dp.unit_of(contributions=Fraction(4, 2)) == (dp.symmetric_distance(), 2)
    d_in = dp.unit_of(l1=Fraction(1, 3))[1]
    assert type(d_in) is float and Fraction(d_in) >= Fraction(1, 3)
    assert Fraction(np.nextafter(d_in, 0.0)) < Fraction(1, 3)
    epsilon = dp.loss_of(epsilon=Fraction(1, 3))[1]
    assert type(epsilon) is float and Fraction(epsilon) <= Fraction(1, 3)
    assert Fraction(np.nextafter(epsilon, 1.0)) > Fraction(1, 3)
    assert dp.loss_of(epsilon=Fraction(1, 2))[1] == 0.5
    with pytest.raises(ContextArgumentError) as error:
        dp.unit_of(contributions=Fraction(3, 2))
    assert error.value.parameter == "contributions"
    with pytest.raises(ContextArgumentError):
        dp.loss_of(epsilon=Fraction(-1, 2))
    with pytest.raises(ContextArgumentError):
        dp.loss_of(epsilon=1.0, delta=Fraction(3, 2))


def test_numpy_and_fraction_weights_and_budgets_split_exactly():
    context = dp.Context.compositor(
        data=[1.0, 2.0],
        privacy_unit=dp.unit_of(contributions=np.int64(1)),
        privacy_loss=dp.loss_of(epsilon=np.float64(1.0)),
        split_by_weights=[np.int64(1), Fraction(1, 2), np.float64(0.5)],
    )
    assert context.d_mids == [0.5, 0.25, 0.25]
    assert split_budget(1.0, [Fraction(1, 3), Fraction(2, 3)]) == split_budget(1.0, [1, 2])
    evenly = dp.Context.compositor(
        data=[1.0, 2.0],
        privacy_unit=dp.unit_of(contributions=1),
        privacy_loss=(dp.max_divergence(), np.float64(1.0)),
        split_evenly_over=np.int64(4),
    )
    assert evenly.d_mids == [0.25] * 4
    for bad in ([np.float64("nan")], [Fraction(-1, 2), 1], [True, 1]):
        with pytest.raises(ContextArgumentError):
            split_budget(1.0, bad)
    with pytest.raises(ContextArgumentError):
        split_budget(Fraction(1, 3), [1, 2])  # a budget must be an f64 value (loss_of rounds)


def test_a_refusal_by_the_compositor_itself_keeps_the_context_in_step():
    # Under Approximate(zCDP) the compositor refuses a query while a queryable it released is
    # answering one (sequentiality); the Context reads the compositor's count, so the refused
    # query is shown as unspent and the next share is still the compositor's next budget.
    measure = dp.approximate(dp.zero_concentrated_divergence())
    context = dp.Context.compositor(
        data=[1.0] * 10,
        privacy_unit=dp.unit_of(contributions=1),
        privacy_loss=(measure, (1.0, 1e-7)),
        split_evenly_over=3,
    )
    nested = context.query().compositor(split_evenly_over=2).release()
    refused = []

    def function(_data):
        try:
            context(_user(context, lambda data: 0, lambda d_in: (0.1, 0.0)))
        except FailedFunctionError as error:
            refused.append(error)
        return "inner"

    assert nested(_user(nested, function, lambda d_in: (0.1, 0.0))) == "inner"
    assert len(refused) == 1 and "sequentiality" in refused[0].message
    assert not isinstance(refused[0], ContextBusyError)  # the parent Context was idle
    assert len(context.remaining_privacy_loss()) == 2 and len(nested.d_mids) == 1
    assert context(_user(context, lambda data: "second", lambda d_in: (0.1, 0.0))) == "second"
    assert len(context.current_privacy_loss()) == 2


@pytest.mark.parametrize("split", [{"split_evenly_over": 4}, {}])
def test_reading_the_budget_from_a_callback_or_its_helper_thread_never_waits(split):
    context = dp.Context.compositor(
        list(range(10)), dp.unit_of(contributions=1), dp.loss_of(epsilon=1.0), **split
    )
    seen = []

    def function(_data):
        seen.append(context.remaining_privacy_loss())
        helper = threading.Thread(target=lambda: seen.append(context.current_privacy_loss()))
        helper.start()
        helper.join(3.0)
        return "blocked" if helper.is_alive() else "finished"

    assert context(_user(context, function, lambda d_in: 0.25)) == "finished"
    if split:
        assert seen == [[0.25, 0.25, 0.25], [0.25]]  # charged before the function runs
    else:
        assert seen == [0.75, 0.25]
