"""The budget split (context.tex, Lemma split): each share is the exact share rounded down, so
the composed total -- the exact sum rounded up once, as the sequential compositor composes --
never exceeds the budget.  Bad budgets and weights are refused with typed errors."""

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from certdp.combinators._context import ContextArgumentError, split_budget
from certdp.combinators._context.split import MAX_PARTS, even_weights
from certdp.numeric import inf_cast

budgets = st.floats(min_value=0.0, max_value=1e300, allow_nan=False, allow_infinity=False)
weights = st.lists(
    st.one_of(
        st.integers(min_value=0, max_value=10**6),
        st.floats(min_value=0.0, max_value=1e6, allow_nan=False),
    ),
    min_size=1,
    max_size=12,
).filter(lambda ws: sum(Fraction(w) for w in ws) > 0)


def _check(budget, ws, shares):
    total = sum(Fraction(w) for w in ws)
    exact = [Fraction(budget) * Fraction(w) / total for w in ws]
    for share, goal in zip(shares, exact, strict=True):
        assert type(share) is float and Fraction(share) <= goal
        assert Fraction(math.nextafter(share, math.inf)) > goal  # the largest f64 <= goal
    composed = inf_cast(sum(Fraction(s) for s in shares))
    assert composed <= budget


@given(budgets, weights)
def test_shares_round_down_and_compose_within_the_budget(budget, ws):
    _check(budget, ws, split_budget(budget, ws))


@given(budgets, budgets, weights)
def test_pairs_split_coordinatewise(epsilon, delta, ws):
    shares = split_budget((epsilon, delta), ws)
    assert all(type(s) is tuple and len(s) == 2 for s in shares)
    _check(epsilon, ws, [s[0] for s in shares])
    _check(delta, ws, [s[1] for s in shares])


@given(budgets, st.integers(min_value=1, max_value=64))
def test_even_split_is_the_division_rounded_down(budget, n):
    shares = split_budget(budget, even_weights(n))
    assert len(set(shares)) == 1 and len(shares) == n
    _check(budget, [1] * n, shares)


def test_opendp_numbers_where_the_rounding_agrees():
    # OpenDP 0.16's d_mids (recorded): Context.compositor(..., epsilon=1.0, split_evenly_over=3)
    assert split_budget(1.0, [1, 1, 1]) == [0.3333333333333333] * 3
    # split_by_weights=[1, 2] of epsilon 1.0; and of (1.0, 1e-7) coordinatewise
    assert split_budget(1.0, [1, 2]) == [0.3333333333333333, 0.6666666666666666]
    assert split_budget(2.0, [1, 1]) == [1.0, 1.0]


def test_rounding_up_would_exceed_the_budget():
    """The instance that makes rounding down necessary: 1/10 rounded up, ten times, is > 1."""
    up = inf_cast(Fraction(1, 10))
    assert inf_cast(10 * Fraction(up)) > 1.0
    assert inf_cast(10 * Fraction(split_budget(1.0, [1] * 10)[0])) <= 1.0


@pytest.mark.parametrize(
    "budget, ws, parameter",
    [
        (-1.0, [1], "privacy_loss"),
        (math.nan, [1], "privacy_loss"),
        (math.inf, [1], "privacy_loss"),
        ("1", [1], "privacy_loss"),
        (2**53 + 1, [1], "privacy_loss"),
        (10**400, [1], "privacy_loss"),  # compared exactly, never converted to float first
        (2**1024, [1], "privacy_loss"),
        (1.0, [10**400], "split_by_weights"),
        ((1.0,), [1], "privacy_loss"),
        ((1.0, -1e-9), [1], "privacy_loss"),
        (1.0, [], "split_by_weights"),
        (1.0, [0, 0.0], "split_by_weights"),
        (1.0, [1, -1], "split_by_weights"),
        (1.0, [1, math.nan], "split_by_weights"),
        (1.0, [math.inf], "split_by_weights"),
        (1.0, "12", "split_by_weights"),
        (1.0, [True], "split_by_weights"),
    ],
)
def test_bad_budgets_and_weights_are_refused(budget, ws, parameter):
    with pytest.raises(ContextArgumentError) as raised:
        split_budget(budget, ws)
    assert raised.value.parameter == parameter and isinstance(raised.value, ValueError)


@pytest.mark.parametrize("n", [0, -1, 1.0, True, MAX_PARTS + 1, None])
def test_bad_even_splits_are_refused(n):
    with pytest.raises(ContextArgumentError) as raised:
        even_weights(n)
    assert raised.value.parameter == "split_evenly_over"
