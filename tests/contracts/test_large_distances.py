"""Distances up to each metric type's limit (issue 10): the contract searches draw ``d_in`` at
2**53 - 1, 2**53, 2**53 + 1, 2**63, 2**64 and beyond what float arithmetic represents exactly,
and a map that computes ``floor(d_in / 2)`` through float division is refuted."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import ContractError
from certdp.contracts.neighbours import (
    DATASET_DISTANCE_LIMIT,
    LARGE_INTEGER_DISTANCES,
    distance_limit,
    distances,
    distances_for,
    neighbours,
    usable_by_pairs,
)
from certdp.transformations._summation.integer_summation import scaled_distance

SIZED = [
    "make_sized_bounded_int_checked_sum",
    "make_sized_bounded_int_monotonic_sum",
    "make_sized_bounded_int_ordered_sum",
    "make_sized_bounded_int_split_sum",
]
REQUIRED = [2**53 - 1, 2**53, 2**53 + 1, 2**63, 2**64]


def test_the_required_large_distances_are_examples():
    assert set(REQUIRED) <= set(LARGE_INTEGER_DISTANCES)
    assert DATASET_DISTANCE_LIMIT >= 2**64
    # 2**54 + 2 and 2**63 + 2 are where float division rounds floor(d_in / 2) down
    assert int((2**54 + 2) / 2) < (2**54 + 2) // 2
    assert int((2**63 + 2) / 2) < (2**63 + 2) // 2


@pytest.mark.parametrize("value", REQUIRED)
def test_dataset_distances_reach_each_required_value(value):
    found = find(distances(dp.symmetric_distance()), lambda d: d == value)
    assert found == value and type(found) is int


@pytest.mark.parametrize(
    "metric, limit",
    [
        (dp.symmetric_distance(), 2**64),
        (dp.insert_delete_distance(), 2**64),
        (dp.absolute_distance("i32"), 2**31 - 1),
        (dp.absolute_distance("u64"), 2**64 - 1),
        (dp.absolute_distance("f64"), 1.7976931348623157e308),
        (dp.absolute_distance("f32"), 3.4028234663852886e38),
        (dp.l1_distance("f64"), 1.7976931348623157e308),
    ],
    ids=repr,
)
def test_distances_reach_the_limit_of_the_type_and_not_beyond(metric, limit):
    assert distance_limit(metric) == limit
    assert find(distances(metric), lambda d: d == limit) == limit

    @settings(max_examples=200)
    @given(d_in=distances(metric))
    def within(d_in):
        assert 0 <= d_in <= limit

    within()


@pytest.mark.parametrize("T", ["f32", "f64"])
def test_float_distances_include_large_floats(T):
    metric = dp.absolute_distance(T)
    assert find(distances(metric), lambda d: d >= 2.0**64) >= 2.0**64
    assert find(distances(metric), lambda d: 0 < d < 1) < 1


def test_neighbours_at_huge_distances_are_drawn_quickly():
    domain = dp.vector_domain(dp.atom_domain(bounds=(0, 10), T="i64"))
    sized = dp.vector_domain(dp.atom_domain(bounds=(0, 10), T="i64"), size=3)
    values = dp.vector_domain(dp.atom_domain(bounds=(-1.0, 1.0)))

    @settings(max_examples=30)
    @given(
        pair=st.sampled_from([2**64, 2**63 + 2, 2**53 + 1]).flatmap(
            lambda d: neighbours(domain, dp.symmetric_distance(), d)
        ),
        sized_pair=neighbours(sized, dp.symmetric_distance(), 2**64),
        close=neighbours(values, dp.l1_distance("f64"), 1e300),
    )
    def draw(pair, sized_pair, close):
        assert len(pair[1]) <= 2 * 12
        assert len(sized_pair[0]) == len(sized_pair[1]) == 3
        assert values.member(close[0]) and values.member(close[1])

    draw()


def test_only_small_dataset_distances_are_usable_by_pairs():
    assert usable_by_pairs(dp.symmetric_distance(), 24, 12)
    assert not usable_by_pairs(dp.symmetric_distance(), 25, 12)
    assert usable_by_pairs(dp.absolute_distance("f64"), 1e300, 12)


def test_distances_for_a_map_that_refuses_large_distances():
    # floor(d_in / 2) * 100 is a u8 only up to d_in = 5; the map refuses beyond
    built = dp.t.make_sized_bounded_int_split_sum(3, (0, 100), T="u8")
    assert built.map(5) == 200
    with pytest.raises(dp.DPError):
        built.map(6)

    @settings(max_examples=100)
    @given(d_in=distances_for(built))
    def accepted(d_in):
        assert 0 <= d_in <= 5

    accepted()
    assert find(distances_for(built), lambda d: d == 5) == 5
    # a map that accepts every distance: the search reaches the limit
    laplace = dp.m.make_laplace(
        dp.atom_domain(T="f64", nan=False), dp.absolute_distance("f64"), 0.5
    )
    assert find(distances_for(laplace), lambda d: d > 1e300) > 1e300


def _recording(name, wrong: bool, seen: list):
    """The constructor ``name``, recording every ``d_in`` its maps see; with ``wrong`` its map
    computes ``floor(d_in / 2)`` as ``int(d_in / 2)`` (a float division)."""
    make = getattr(dp.t, name)

    def constructor(**kwargs):
        built = make(**kwargs)
        lower, upper = built.input_domain.element_domain.bounds
        T, right = built.output_domain.T, built._map

        def stability_map(d_in):
            seen.append(d_in)
            if wrong:
                return scaled_distance(int(d_in / 2), upper - lower, T)
            return right(d_in)

        built._map = stability_map
        return built

    constructor.__name__ = constructor.__qualname__ = name
    constructor.__wrapped__ = make
    return constructor


def _fixed(name, constructor, **kwargs):
    return dataclasses.replace(
        contract_of(getattr(dp.t, name)), constructor=constructor, arguments=lambda: st.just(kwargs)
    )


@pytest.mark.parametrize("T", ["u64", "i64"])
@pytest.mark.parametrize("name", SIZED)
def test_float_division_in_a_sized_map_is_refuted(name, T):
    seen: list = []
    contract = _fixed(name, _recording(name, True, seen), size=3, bounds=(0, 1), T=T)
    with pytest.raises(ContractError) as refutation:
        contract.verify()
    assert refutation.value.condition == "stability-map"
    assert max(seen) >= 2**54


@pytest.mark.parametrize("name", SIZED)
def test_the_right_sized_map_passes_at_large_distances(name):
    seen: list = []
    contract = _fixed(name, _recording(name, False, seen), size=3, bounds=(0, 1), T="u64")
    contract.verify()
    assert max(seen) >= 2**64 and any(2**53 <= d < 2**64 for d in seen)


def test_the_full_sized_contract_draws_distances_beyond_2_53():
    seen: list = []
    name = "make_sized_bounded_int_split_sum"
    contract = dataclasses.replace(
        contract_of(getattr(dp.t, name)), constructor=_recording(name, False, seen)
    )
    contract.verify()
    assert max(seen) >= 2**53
