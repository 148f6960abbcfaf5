"""make_pureDP_to_zCDP over inner maps that return bad epsilons (referee 18): every one is a
typed DPError naming the rule; +inf, NumPy scalars and exact values beyond f64 still work."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.combinators._support.conversion_smt import d_in_stub_measurement


@pytest.fixture(autouse=True)
def _features():
    dp.enable_features("contrib")
    yield
    dp.disable_features("contrib")


def _pure_over(value):
    return dp.c.make_pureDP_to_zCDP(d_in_stub_measurement(lambda d_in: value, dp.max_divergence()))


@pytest.mark.parametrize("path", ["map", "_map"])
def test_negative_infinite_epsilon_is_a_typed_error(path):
    converted = _pure_over(-math.inf)
    with pytest.raises(dp.DPError, match="must be a number >= 0"):
        getattr(converted, path)(1)


@pytest.mark.parametrize("path", ["map", "_map"])
@pytest.mark.parametrize(
    "value, rule",
    [
        (math.nan, "must be a number >= 0"),
        (np.float32("nan"), "must be a number >= 0"),
        (-1.0, "must be >= 0"),
        (-1, "must be >= 0"),
        (Fraction(-1, 3), "must be >= 0"),
        ("1.5", "not str"),
        (True, "not bool"),
        (None, "not NoneType"),
        (1.5 + 0j, "not complex"),
    ],
)
def test_invalid_inner_epsilon_is_refused_typed(value, rule, path):
    with pytest.raises(dp.DPError, match=rule):
        getattr(_pure_over(value), path)(1)


def test_numpy_float32_epsilon():
    assert _pure_over(np.float32(1.5)).map(1) == 1.125
    assert _pure_over(np.float32(np.inf)).map(1) == math.inf


def test_numpy_int64_epsilon():
    # exact 3**2 / 2; before the fix the message named Fraction, not the NumPy type
    assert _pure_over(np.int64(3)).map(1) == 4.5


def test_exact_epsilons_beyond_f64_give_infinity():
    assert _pure_over(10**400).map(1) == math.inf
    assert _pure_over(Fraction(10**400, 3)).map(1) == math.inf
    assert _pure_over(math.inf).map(1) == math.inf


def test_exact_small_epsilons():
    rho = _pure_over(Fraction(1, 3)).map(1)
    assert Fraction(rho) >= Fraction(1, 18) and Fraction(math.nextafter(rho, 0)) < Fraction(1, 18)
    assert _pure_over(0).map(1) == 0.0
    assert _pure_over(np.float64(-0.0)).map(1) == 0.0
