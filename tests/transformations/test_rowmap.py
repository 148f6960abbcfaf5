"""The shared row-by-row lemma code (transformations/_rowmap): what it builds, what it refuses,
and the row-map lemma's inequalities on drawn neighbouring datasets, with non-injective rows."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.neighbours import neighbours
from certdp.core.errors import MakeTransformationError
from certdp.transformations._rowmap import make_row_by_row


def _floor_half(record):
    return record // 2


def test_builds_the_row_map_with_the_identity_map():
    domain = dp.vector_domain(dp.atom_domain(T="i32"), size=3)
    t = make_row_by_row(domain, dp.atom_domain(T="i32"), dp.insert_delete_distance(), _floor_half)
    assert t([5, -3, 4]) == [2, -2, 2]
    assert t.output_domain == dp.vector_domain(dp.atom_domain(T="i32"), size=3)
    assert t.output_metric == dp.insert_delete_distance()
    assert t.map(7) == 7


def test_refuses_a_non_vector_domain_then_a_non_dataset_metric():
    with pytest.raises(MakeTransformationError, match="vector_domain") as error:
        make_row_by_row(
            dp.atom_domain(T="i32"), dp.atom_domain(T="i32"), dp.l1_distance("i32"), abs
        )
    assert error.value.parameter == "input_domain"
    with pytest.raises(MakeTransformationError, match="symmetric_distance") as error:
        make_row_by_row(
            dp.vector_domain(dp.atom_domain(T="i32")),
            dp.atom_domain(T="i32"),
            dp.l1_distance("i32"),
            abs,
        )
    assert error.value.parameter == "input_metric"


def _sign(record):
    return math.copysign(1.0, record) if not math.isnan(record) else 0.0


@pytest.mark.parametrize("metric", [dp.symmetric_distance(), dp.insert_delete_distance()])
@given(data=st.data(), d_in=st.integers(min_value=0, max_value=4))
def test_row_map_never_increases_the_dataset_distances(metric, data, d_in):
    domain = dp.vector_domain(dp.atom_domain(T="f64", nan=True))
    t = make_row_by_row(domain, dp.atom_domain(T="f64"), metric, _sign)
    x, x_prime = data.draw(neighbours(domain, metric, d_in))
    assert len(t(x)) == len(x)
    assert metric.distance(t(x), t(x_prime)) <= metric.distance(x, x_prime) <= d_in
