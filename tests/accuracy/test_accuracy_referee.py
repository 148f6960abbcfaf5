"""Regressions for the referee's findings on the accuracy conversions (branch ``accuracy``,
30c26a4): each counterexample keeps the referee's assertion."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.measurements._accuracy.accuracy import AccuracyParameterError
from certdp.measurements._accuracy.contract import reference

MAX64 = float(np.finfo(np.float64).max)
MAX32 = float(np.finfo(np.float32).max)

NAMES = [
    "laplacian_scale_to_accuracy",
    "accuracy_to_laplacian_scale",
    "discrete_laplacian_scale_to_accuracy",
    "accuracy_to_discrete_laplacian_scale",
    "gaussian_scale_to_accuracy",
    "accuracy_to_gaussian_scale",
    "discrete_gaussian_scale_to_accuracy",
    "accuracy_to_discrete_gaussian_scale",
]


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")
    yield


# alpha (found by the referee with mpmath at 60 digits) with P(|N(0, s^2)| >= M_T) <= alpha <
# P(|N(0, s^2)| >= pred(M_T)): the Gaussian accuracy is exactly the largest finite value M_T
TOP_CASES = [
    ("f64", 2.0**1023, 0.045500263896358445, MAX64),
    ("f32", 2.0**127, 0.04550027847290039, MAX32),
]


@pytest.mark.parametrize("T, scale, alpha, top", TOP_CASES)
def test_discrete_gaussian_accuracy_beyond_range_is_inf_not_typeerror(T, scale, alpha, top):
    """Was: k = M_T + 1 rounded up is None, and the comparison with M_T raised TypeError."""
    assert dp.gaussian_scale_to_accuracy(scale, alpha, T) == top  # the precondition of the bug
    assert dp.discrete_gaussian_scale_to_accuracy(scale, alpha, T) == math.inf


@pytest.mark.parametrize("T, scale, alpha, top", TOP_CASES)
def test_discrete_gaussian_accuracy_at_the_top_of_the_range(T, scale, alpha, top):
    """At half the scale the Gaussian accuracy a is an integer below M_T, k = a + 1 and up(k) is
    a's successor in T (finite); beyond the range (a smaller alpha) a is inf, and so is k."""
    a = dp.gaussian_scale_to_accuracy(scale / 2, alpha, T)
    dtype = np.float32 if T == "f32" else np.float64
    successor = float(np.nextafter(dtype(a), dtype(np.inf)))
    assert a == math.floor(a) < top
    assert dp.discrete_gaussian_scale_to_accuracy(scale / 2, alpha, T) == successor <= top
    assert dp.gaussian_scale_to_accuracy(scale, alpha / 2, T) == math.inf
    assert dp.discrete_gaussian_scale_to_accuracy(scale, alpha / 2, T) == math.inf


def test_T_is_inferred_from_a_numpy_float32_scale_as_in_opendp():
    inferred = dp.laplacian_scale_to_accuracy(np.float32(1.0), np.float32(0.05))
    explicit = dp.laplacian_scale_to_accuracy(np.float32(1.0), np.float32(0.05), T="f32")
    assert inferred == explicit
    assert float(np.float32(inferred)) == inferred
    # each of the eight, from the first argument only (alpha's type does not decide)
    for name in NAMES:
        function = getattr(dp, name)
        assert function(np.float32(1.5), 0.25) == function(1.5, 0.25, T="f32"), name
        assert function(1.5, np.float32(0.25)) == function(1.5, 0.25, T="f64"), name


def test_T_accepts_numpy_float32_type_descriptor_as_opendp_does():
    expected = dp.gaussian_scale_to_accuracy(1.0, 0.5, T="f32")
    assert dp.gaussian_scale_to_accuracy(1.0, 0.5, T=np.float32) == expected


@pytest.mark.parametrize("name", NAMES)
def test_T_spellings(name):
    function = getattr(dp, name)
    f32 = function(3.0, 0.125, T="f32")
    f64 = function(3.0, 0.125, T="f64")
    for spelling in (np.float32,):
        assert function(3.0, 0.125, T=spelling) == f32
    for spelling in (np.float64, float, "float"):
        assert function(3.0, 0.125, T=spelling) == f64
    for refused in (int, "int", np.int32, "f16", np.float16):
        with pytest.raises(dp.DPError) as error:
            function(3.0, 0.125, T=refused)
        assert error.value.parameter == "T"


@pytest.mark.parametrize("name", NAMES)
def test_alpha_not_in_T_is_rounded_down(name):
    """OpenDP rounds alpha = 0.05 to the nearest f32, 0.0500000007...: a weaker level than
    asked. certdp rounds it down, so the result holds at the user's alpha."""
    function = getattr(dp, name)
    down = float(np.nextafter(np.float32(0.05), np.float32(0)))
    assert down < 0.05 < float(np.float32(0.05))
    assert function(1.5, 0.05, T="f32") == function(1.5, down, T="f32")
    # in f64 a rational alpha is rounded down too
    third = Fraction(1, 3)
    third_down = float(third)
    if third_down > third:
        third_down = math.nextafter(third_down, 0)
    assert function(1.5, third) == function(1.5, third_down)


def test_alpha_rounded_down_holds_at_the_given_alpha():
    for alpha in (0.05, 0.1, 1e-10, 0.3):
        a = dp.laplacian_scale_to_accuracy(1.0, alpha, T="f32")
        assert reference.laplace_accuracy(1.0, alpha) <= a
        s = dp.accuracy_to_gaussian_scale(1.0, alpha, T="f32")
        assert reference.gaussian_tail(1.0 / s) <= alpha
        g = dp.gaussian_scale_to_accuracy(1.0, alpha, T="f32")
        assert reference.gaussian_tail(g) <= alpha


@pytest.mark.parametrize("name", NAMES)
def test_alpha_range_is_checked_before_rounding(name):
    function = getattr(dp, name)
    just_above_one = math.nextafter(1.0, 2.0)  # rounds down to 1 in f32
    for alpha in (just_above_one, 1.0 + 1e-12, -1e-50):
        with pytest.raises(AccuracyParameterError) as error:
            function(1.5, alpha, T="f32")
        assert error.value.parameter == "alpha"
    with pytest.raises(AccuracyParameterError, match="rounds down to 0") as error:
        function(1.5, 1e-50, T="f32")  # below the least f32 subnormal
    assert error.value.parameter == "alpha"
    # just below 1: rounds to the f32 below 1 for a scale, stays legal
    below_one = math.nextafter(1.0, 0.0)
    top = float(np.nextafter(np.float32(1), np.float32(0)))
    assert function(1.5, below_one, T="f32") == function(1.5, top, T="f32")


def test_reference_leaves_the_global_mpmath_precision_alone():
    import mpmath

    before = mpmath.mp.dps
    reference.laplace_accuracy(1.0, 0.05)
    assert mpmath.mp.dps == before
    assert reference.mp().dps == 120


@pytest.mark.parametrize("name", NAMES)
def test_f32_python_float_alpha_against_opendp(name):
    """OpenDP reads alpha = 0.05 in f32 as its nearest f32 (above 0.05); certdp rounds it down,
    so its accuracy is never below OpenDP's and its scale never above. With f32 arguments
    (T inferred) both compute at the same alpha, and the types agree."""
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    to_accuracy = "_to_accuracy" in name
    for value in (1.5, 10.0, 100.0):
        ours = getattr(dp, name)(value, 0.05, T="f32")
        theirs = getattr(odp, name)(value, 0.05, T="f32")
        assert ours >= theirs if to_accuracy else ours <= theirs, (value, ours, theirs)
        inferred = getattr(dp, name)(np.float32(value), np.float32(0.05))
        assert inferred == getattr(dp, name)(value, float(np.float32(0.05)), T="f32")
        assert float(np.float32(inferred)) == inferred
