"""refconv: the fix_delta contract must flag a stated delta below the 80-digit bound.

``_exact`` calls ``mpmath.mpf(value)`` at the default 53-bit precision, which rounds the
80-digit bound to nearest; a stated delta equal to that rounding (one f64 below the true bound)
then passes."""

import math
from fractions import Fraction

import mpmath
import pytest

import certdp.prelude as dp
from certdp.combinators._support.contract_support import _attach, _space, mp_cdp_delta
from certdp.combinators.fix_delta.contract import CONTRACT, _converted
from certdp.contracts.contract import PrivacyViolation
from certdp.measurements.gaussian import make_gaussian


def test_stated_delta_one_float_below_the_bound_is_a_violation():
    dp.enable_features("contrib")
    gaussian = _attach(make_gaussian, {**_space("f64"), "scale": 1.0})
    measurement = _converted(gaussian)
    epsilon = 5.22153444453017
    x, x_prime = 0.0, 1.0  # rho = 1/2 for scale 1
    bound = mp_cdp_delta(Fraction(1, 2), epsilon)
    with mpmath.workdps(80):
        man, exp = bound.man_exp
        true_bound = Fraction(man) * Fraction(2) ** exp
    below = float(true_bound)
    if Fraction(below) >= true_bound:
        below = math.nextafter(below, 0)
    assert Fraction(below) < true_bound  # a stated delta strictly below the exact bound
    with pytest.raises(PrivacyViolation):
        CONTRACT.check_pair(
            None, {"measurement": measurement, "delta": 1e-6}, x, x_prime, 1.0, (epsilon, below)
        )
