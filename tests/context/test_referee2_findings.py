"""Regressions for referee-ctx2's findings on the Context (c6c8d10): each counterexample with the
referee's own assertion, then the cases around it (the direct queryable guarded by the busy lock,
a hand-built Context's shares, NumPy scalar types as OpenDP infers them, Fractions above the
largest f64, delta compared before rounding, the pre-check's error for a loss that is no number)."""

from __future__ import annotations

import sys
import threading
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.combinators._context import ContextArgumentError, ContextBusyError
from certdp.core.errors import DPError, FailedFunctionError, FailedMapError
from certdp.core.transformation import Measurement


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _context():
    return dp.Context.compositor(
        data=list(range(10)),
        privacy_unit=dp.unit_of(contributions=1),
        privacy_loss=dp.loss_of(epsilon=1.0),
        split_evenly_over=3,
    )


def _user(context, function, privacy_map):
    a = context.accountant
    return Measurement(a.input_domain, function, a.input_metric, a.output_measure, privacy_map)


# -- the referee's counterexamples, assertions unchanged -----------------------------------------


def test_context_call_never_waits_even_while_the_queryable_is_used_directly():
    context = _context()
    base = context.query().count().laplace(scale=10.0).resolve()
    seen = []

    def helper():
        try:
            seen.append(("released", context(base)))
        except DPError as error:
            seen.append(("refused", type(error)))

    def function(data):
        thread = threading.Thread(target=helper, daemon=True)
        thread.start()
        thread.join(2.0)
        return thread.is_alive()

    still_waiting = context.queryable(_user(context, function, lambda d: 0.1))
    assert not still_waiting, "C(q) waited on the queryable's lock"
    assert seen and seen[0][0] == "refused" and issubclass(seen[0][1], FailedFunctionError)


def test_a_hand_built_context_shows_the_compositors_budgets_not_its_own():
    context = _context()
    try:
        forged = dp.Context(context.accountant, context.queryable, context.d_in, d_mids=[5.0] * 5)
    except DPError:
        return
    assert forged.remaining_privacy_loss() == [1 / 3] * 3


def test_unit_of_a_numpy_integer_gets_an_integer_distance_type():
    metric, d_in = dp.unit_of(absolute=np.int64(2))
    assert d_in == 2
    assert metric in (dp.absolute_distance(T="i32"), dp.absolute_distance(T="i64"))
    metric, d_in = dp.unit_of(absolute=np.uint64(2**64 - 1))
    assert not (metric == dp.absolute_distance(T="f64") and float(d_in) != d_in)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: dp.loss_of(epsilon=Fraction(10**400, 3)), "epsilon"),
        (lambda: dp.unit_of(absolute=Fraction(10**400, 3)), "absolute"),
    ],
)
def test_a_huge_fraction_is_refused_naming_its_parameter(call, name):
    with pytest.raises(DPError) as info:
        call()
    assert info.value.parameter == name


def test_delta_above_one_as_a_fraction_is_refused():
    with pytest.raises(DPError):
        dp.loss_of(epsilon=1.0, delta=Fraction(10**30 + 1, 10**30))


# -- around them ---------------------------------------------------------------------------------


def test_the_direct_queryable_is_refused_while_a_context_query_runs_and_charges_nothing():
    context = _context()
    outcome = []

    def helper():
        try:
            context.queryable(_user(context, lambda data: "inner", lambda d: 0.1))
            outcome.append("released")
        except ContextBusyError as error:
            outcome.append(error.parameter)

    def function(_data):
        with pytest.raises(ContextBusyError):  # the same thread, directly
            context.queryable.eval(_user(context, lambda data: "inner", lambda d: 0.1))
        thread = threading.Thread(target=helper, daemon=True)
        thread.start()
        thread.join(2.0)
        return thread.is_alive()

    assert context(_user(context, function, lambda d: 0.1)) is False
    assert outcome == ["query"]
    assert len(context.current_privacy_loss()) == 1  # only the outer query was charged
    assert context.queryable(_user(context, lambda data: "after", lambda d: 0.1)) == "after"
    assert len(context.current_privacy_loss()) == 2


def test_the_filter_contexts_direct_queryable_is_guarded_and_reports_its_loss():
    context = dp.Context.compositor(
        list(range(10)), dp.unit_of(contributions=1), dp.loss_of(epsilon=1.0)
    )

    def function(_data):
        with pytest.raises(ContextBusyError):
            context.queryable(_user(context, lambda data: 0, lambda d: 0.1))
        return "outer"

    assert context(_user(context, function, lambda d: 0.25)) == "outer"
    assert context.queryable.privacy_loss(context.d_in) == 0.25  # forwarded, not a query
    assert context.current_privacy_loss() == 0.25


def test_a_hand_built_context_with_the_compositors_budgets_shares_them_and_the_busy_lock():
    context = _context()
    with pytest.raises(ContextArgumentError) as error:
        dp.Context(context.accountant, context.queryable, context.d_in, d_mids=[0.25] * 3)
    assert error.value.parameter == "d_mids"
    twin = dp.Context(context.accountant, context.queryable, context.d_in, d_mids=[1 / 3] * 3)
    assert twin.remaining_privacy_loss() == [1 / 3] * 3

    def function(_data):
        with pytest.raises(ContextBusyError):  # the twin shares the queryable's busy lock
            twin(_user(twin, lambda data: 0, lambda d: 0.1))
        return "outer"

    assert context(_user(context, function, lambda d: 0.1)) == "outer"
    assert twin.current_privacy_loss() == [1 / 3] and context.d_mids == twin.d_mids


@pytest.mark.parametrize(
    "value, T",
    [
        (np.int64(2), "i64"),
        (np.int32(2), "i32"),
        (np.uint64(2**64 - 1), "u64"),
        (np.float32(0.5), "f32"),
        (np.float64(0.5), "f64"),
        (2, "i32"),
        (0.5, "f64"),
        (Fraction(4, 2), "i32"),  # an integer Fraction is that int
        (Fraction(1, 3), "f64"),
    ],
)
def test_unit_of_infers_the_type_as_opendp_does_for_numpy_scalars(value, T):
    metric, d_in = dp.unit_of(absolute=value)
    assert metric == dp.absolute_distance(T=T)
    assert d_in >= value and type(d_in) in (int, float)


def test_unit_of_an_explicit_U_wins_over_the_inferred_type():
    assert dp.unit_of(l1=np.int64(3), U="f64") == (dp.l1_distance(T="f64"), 3)


@pytest.mark.parametrize("name", ["epsilon", "rho"])
def test_loss_fractions_up_to_the_largest_f64_are_kept_and_above_it_refused(name):
    largest = Fraction(sys.float_info.max)
    assert dp.loss_of(**{name: largest})[1] == sys.float_info.max
    with pytest.raises(ContextArgumentError) as error:
        dp.loss_of(**{name: largest + Fraction(1, 3)})
    assert error.value.parameter == name


@pytest.mark.parametrize("name", ["absolute", "l1", "l2"])
def test_distance_fractions_above_the_largest_f64_are_refused_naming_them(name):
    with pytest.raises(ContextArgumentError) as error:
        dp.unit_of(**{name: Fraction(sys.float_info.max) + Fraction(1, 3)})
    assert error.value.parameter == name


def test_delta_is_compared_with_one_exactly_before_rounding():
    assert dp.loss_of(epsilon=1.0, delta=Fraction(1))[1] == (1.0, 1)
    assert dp.loss_of(epsilon=1.0, delta=Fraction(10**30 - 1, 10**30))[1][1] <= 1
    for above in (np.nextafter(np.longdouble(1), np.longdouble(2)), Fraction(10**30 + 1, 10**30)):
        with pytest.raises(ContextArgumentError) as error:
            dp.loss_of(epsilon=1.0, delta=above)
        assert error.value.parameter == "delta"


def test_a_loss_that_is_no_number_gets_the_compositors_error_class_and_parameter():
    context = _context()
    query = _user(context, lambda data: 0, lambda d: "not a number")
    with pytest.raises(FailedMapError) as through_context:
        context(query)
    with pytest.raises(FailedMapError) as direct:
        context.queryable(query)
    assert through_context.value.parameter == direct.value.parameter == "query"
    assert through_context.value.message == direct.value.message
    assert context.current_privacy_loss() == []  # neither path charged
