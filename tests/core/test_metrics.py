import math
from fractions import Fraction

import pytest
import sympy

import certdp.prelude as dp
from certdp.core.errors import MakeDomainError


def test_symmetric_distance_is_multiset_difference():
    metric = dp.symmetric_distance()
    assert metric.distance([1, 2, 2], [2, 1, 2]) == 0
    assert metric.distance([1, 2, 2], [2, 3]) == 3
    assert metric.distance([], [1, 1]) == 2


def test_symmetric_distance_float_records():
    metric = dp.symmetric_distance()
    assert metric.distance([math.nan], [float("nan")]) == 0
    assert metric.distance([0.0], [-0.0]) == 2


def test_insert_delete_distance_respects_order():
    metric = dp.insert_delete_distance()
    assert metric.distance([1, 2, 3], [1, 2, 3]) == 0
    assert metric.distance([1, 2, 3], [3, 2, 1]) == 4
    assert metric.distance([1, 2, 3], [1, 3]) == 1
    assert metric.distance([], [5]) == 1


def test_numeric_distances_are_exact():
    assert dp.absolute_distance("f64").distance(0.1, 0.2) == abs(Fraction(0.1) - Fraction(0.2))
    assert (
        dp.l1_distance("f64").distance([0.1, 1.0], [0.2, -1.0]) == Fraction(0.2) - Fraction(0.1) + 2
    )
    assert dp.l1_distance("f64").distance([1.0], [1.0, 2.0]) == math.inf
    assert dp.absolute_distance("f64").distance(math.inf, 0.0) == math.inf
    l2 = dp.l2_distance("f64")
    assert l2.distance([3.0, 0.0], [0.0, 4.0]) == 5
    assert l2.distance([1.0, 0.0], [0.0, 1.0]) == sympy.sqrt(2)
    assert l2.close([1.0, 0.0], [0.0, 1.0], 1.4142135623730951)
    assert not l2.close([1.0, 0.0], [0.0, 1.0], 1.414213562373095)


def test_metric_equality_and_types():
    assert dp.l1_distance("f64") == dp.l1_distance(T=float)
    assert dp.l1_distance("f64") != dp.l1_distance("f32")
    assert dp.symmetric_distance() != dp.insert_delete_distance()
    assert dp.l2_distance("i32").distance_type == "i32"
    with pytest.raises(MakeDomainError, match="numeric"):
        dp.l1_distance("bool")


def test_max_divergence():
    assert dp.max_divergence() == dp.max_divergence()
    assert repr(dp.max_divergence()) == "MaxDivergence"
