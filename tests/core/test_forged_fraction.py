"""A Fraction built without its constructor (``object.__new__(Fraction)`` with its fields set
by hand) may hold a denominator ``0`` or ``< 0``; its comparisons cross-multiply the stored
fields, so ``1/(-2)`` would compare as ``>= 0``.  The exactness tests of core/measures.py
(``_require_number``) and core/conversion.py (``is_exact``) require a positive ``int``
denominator (core/measures.tex item 4, core/conversion.tex items 1 and 2)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import certdp.prelude as dp
from certdp.core.conversion import exact_scalar, is_exact
from certdp.core.errors import DPError, FailedCastError, FailedMapError
from certdp.core.measures import PrivacyProfile


def forged(numerator, denominator) -> Fraction:
    value = object.__new__(Fraction)
    value._numerator, value._denominator = numerator, denominator
    return value


def test_a_forged_fraction_misorders_without_the_check():
    """The premise: Python's own comparison is fooled by a negative stored denominator."""
    assert forged(1, -2) >= 0
    assert type(forged(1, -2)) is Fraction


@pytest.mark.parametrize("numerator, denominator", [(1, -2), (1, 0), (0, 0), (-1, -2)])
def test_is_exact_refuses_a_non_positive_denominator(numerator, denominator):
    assert is_exact(forged(numerator, denominator)) is False


def test_is_exact_keeps_a_constructed_fraction():
    assert is_exact(Fraction(-1, 2)) is True
    assert is_exact(forged(1, 2)) is True  # a positive denominator: the value it denotes


@pytest.mark.parametrize("numerator, denominator", [(1, -2), (-1, -2), (3, -6)])
def test_exact_scalar_rebuilds_a_negative_denominator_as_its_value(numerator, denominator):
    value = exact_scalar(forged(numerator, denominator), "x")
    assert value == Fraction(numerator, denominator)
    assert value.denominator > 0 and type(value.denominator) is int


@pytest.mark.parametrize("numerator", [1, 0, -1])
def test_exact_scalar_refuses_a_zero_denominator_typed(numerator):
    with pytest.raises(FailedCastError) as error:
        exact_scalar(forged(numerator, 0), "x")
    assert error.value.parameter == "x"
    assert "denominator is 0" in str(error.value)


@pytest.mark.parametrize("numerator, denominator", [(1, -2), (1, 0), (0, 0)])
def test_ordered_refuses_a_forged_distance(numerator, denominator):
    for measure in (dp.max_divergence(), dp.zero_concentrated_divergence()):
        with pytest.raises(FailedMapError) as error:
            measure.ordered(forged(numerator, denominator), 1.0)
        assert error.value.parameter == "d_a"
    with pytest.raises(FailedMapError):
        dp.approximate(dp.max_divergence()).ordered((1.0, forged(numerator, denominator)),
                                                    (1.0, 1.0))  # fmt: skip


def test_ordered_still_takes_a_fraction():
    assert dp.max_divergence().ordered(Fraction(1, 2), 1.0) is True
    assert dp.max_divergence().ordered(forged(1, 2), Fraction(1, 3)) is False


def test_a_profile_whose_curve_gives_a_forged_fraction_is_refused():
    profile = PrivacyProfile(lambda epsilon: forged(1, -2))
    with pytest.raises(DPError) as error:
        profile.delta(1.0)
    assert error.value.parameter == "curve"
