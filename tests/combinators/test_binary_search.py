"""binary_search / binary_search_param / binary_search_chain: the value returned always
passed the predicate, and (for monotone predicates) its neighbour on the other side failed."""

from __future__ import annotations

import importlib
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.combinators._search import BinarySearchError
from certdp.core.errors import DPError

ATOM = dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")


@given(st.floats(-1e300, 1e300, allow_nan=False), st.booleans())
def test_float_search_finds_the_adjacent_passing_float(threshold, increasing):
    seen = []

    def predicate(x):
        seen.append(x)
        return x >= threshold if increasing else x <= threshold

    found, sign = dp.binary_search(predicate, return_sign=True)
    assert predicate(found) and found in seen
    step = math.nextafter(found, -math.inf if increasing else math.inf)
    assert not predicate(step)
    assert sign == (1 if increasing else -1)


@given(st.integers(-(10**15), 10**15), st.booleans())
def test_integer_search_finds_the_adjacent_passing_integer(threshold, increasing):
    def predicate(x):
        return x >= threshold if increasing else x <= threshold

    found = dp.binary_search(predicate, T=int)
    assert isinstance(found, int) and predicate(found)
    assert not predicate(found - 1 if increasing else found + 1)


def test_bounds_and_types():
    assert dp.binary_search(lambda x: x > 5, bounds=(0, 100)) == 6
    assert dp.binary_search(lambda x: x < 5, bounds=(0, 100), return_sign=True) == (4, -1)
    assert dp.binary_search(lambda x: x >= 0.5, bounds=(0.0, 1.0)) == 0.5
    assert dp.binary_search(lambda x: x >= 3, T="i32") == 3


@pytest.mark.parametrize(
    "predicate, bounds, T",
    [
        (lambda x: True, (0, 10), None),  # constant within the bounds
        (lambda x: x > 50, (0, 10), None),  # boundary outside the bounds
        (lambda x: True, (None, None), float),  # constant everywhere
        (lambda x: x > 0, (0.0, math.inf), None),
        (lambda x: x > 0, (0.0, math.nan), None),
        (lambda x: x > 0, (0.0,), None),
        (lambda x: x > 0, (None, None), "String"),
    ],
)
def test_bad_searches_raise_typed_errors(predicate, bounds, T):
    with pytest.raises(BinarySearchError) as error:
        dp.binary_search(predicate, bounds, T)
    assert isinstance(error.value, DPError) and isinstance(error.value, ValueError)


def test_predicate_errors_count_as_failures():
    def predicate(x):
        if x < 0:
            raise dp.FailedFunctionError("negative", parameter="x")
        return x >= 2.5

    assert dp.binary_search(predicate) == 2.5


def test_always_raising_predicate_reraises_its_error():
    def predicate(x):
        raise dp.MakeMeasurementError("never", parameter="scale")

    with pytest.raises(dp.MakeMeasurementError):
        dp.binary_search(predicate)


def test_binary_search_param_returns_a_checked_scale():
    def make(scale):
        return dp.m.make_laplace(*ATOM, scale)

    scale = dp.binary_search_param(make, d_in=0.1, d_out=1.0)
    assert scale == 0.1 and make(scale).check(0.1, 1.0)
    assert not make(math.nextafter(scale, 0)).check(0.1, 1.0)


def test_binary_search_chain_for_an_approximate_dp_budget():
    vector = dp.vector_domain(dp.atom_domain(T="f64", nan=False)), dp.l2_distance(T="f64")

    def make(scale):
        gaussian = dp.m.make_gaussian(*vector, scale)
        return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(gaussian), 1e-6)

    chain = dp.binary_search_chain(make, 1.0, (1.0, 1e-6))
    epsilon, delta = chain.map(1.0)
    assert epsilon <= 1.0 and delta == 1e-6
    assert chain.check(1.0, (1.0, 1e-6))


def test_binary_search_chain_rechecks_the_rebuilt_chain(monkeypatch):
    """Should the parameter found not pass when the chain is rebuilt (a chain whose check is
    not deterministic), binary_search_chain refuses to return it."""
    module = importlib.import_module("certdp.combinators._search.binary_search")

    monkeypatch.setattr(module, "binary_search_param", lambda *args: 0.5)

    class Chain:
        def __init__(self, parameter):
            self.parameter = parameter

        def check(self, d_in, d_out):
            return self.parameter >= 1.0

    with pytest.raises(BinarySearchError, match="no longer passes"):
        dp.binary_search_chain(Chain, 1, 1)
    monkeypatch.setattr(module, "binary_search_param", lambda *args: 2.0)
    assert dp.binary_search_chain(Chain, 1, 1).parameter == 2.0


@pytest.mark.parametrize("bounds", [(-0.0, 1.0), (None, None)])
def test_returned_float_is_one_the_predicate_passed_even_at_signed_zero(bounds):
    """Regression: -0.0 and 0.0 shared key 0, so a search whose passing end was -0.0 returned
    0.0, a value never evaluated (and failing here)."""
    evaluated = []

    def negative_sign(value):
        evaluated.append(value)
        return math.copysign(1.0, value) < 0

    found = dp.binary_search(negative_sign, bounds=bounds, T=float)
    assert math.copysign(1.0, found) < 0
    assert any(v == found and math.copysign(1.0, v) == math.copysign(1.0, found) for v in evaluated)
