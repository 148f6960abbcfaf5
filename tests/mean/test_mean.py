import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import (
    ArithmeticOverflowError,
    FailedFunctionError,
    FailedMapError,
    MakeTransformationError,
)
from certdp.numeric import ulp


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def floats(bounds=(0.0, 10.0), size=3, T="f64"):
    return dp.vector_domain(dp.atom_domain(bounds=bounds, T=T), size=size)


def test_mean_and_map_like_opendp():
    t = dp.t.make_mean(floats(size=100), dp.symmetric_distance())
    assert t.map(2) == 0.10000000000003129  # OpenDP 0.16, digit for digit
    assert t.map(0) == float.fromhex("0x1.19c1165ec0630p-45")  # rounding terms alone
    assert t([2.5] * 100) == 2.5
    assert t.output_domain == dp.atom_domain(T="f64", nan=False)
    assert t.output_metric == dp.absolute_distance("f64")


def test_small_means_are_sum_times_the_rounded_reciprocal():
    t = dp.t.make_mean(floats(), dp.symmetric_distance())
    assert t([1.0, 2.0, 4.0]) == 7.0 * (1 / 3)  # fl(fl(7) * fl(1/3)), as OpenDP
    assert t([10.0, 10.0, 10.0]) == 10.0
    assert t([0.0, 0.0, 0.0]) == 0.0


def test_the_map_has_the_closed_form_of_the_proof():
    t = dp.t.make_mean(floats(bounds=(-1.0, 5.0), size=7), dp.symmetric_distance())
    c = 1 / 7
    rounding = ulp(7 * 5.0 * c)
    sum_map = dp.t.make_sum(floats(bounds=(-1.0, 5.0), size=7), dp.symmetric_distance()).map(4)
    assert Fraction(t.map(4)) >= Fraction(c) * Fraction(sum_map) + Fraction(rounding)
    assert t.map(4) <= c * sum_map + 2 * rounding


def test_partial_with_insert_delete_distance_which_opendp_refuses():
    sym = dp.t.make_mean(floats(size=10), dp.symmetric_distance())
    ordered = (floats(size=10), dp.insert_delete_distance()) >> dp.t.then_mean()
    assert ordered.input_metric == dp.insert_delete_distance()
    for d_in in range(5):
        assert ordered.map(d_in) == sym.map(d_in)
    data = [float(i) for i in range(10)]
    assert ordered(data) == sym(data) == 4.5


def test_f32_mean_of_a_numpy_array():
    t = dp.t.make_mean(floats(T="f32", size=4), dp.symmetric_distance())
    assert t(np.array([1.0, 2.0, 3.0, 4.5], dtype=np.float32)) == 2.625
    assert t.output_domain == dp.atom_domain(T="f32", nan=False)


def test_resize_then_mean_end_to_end():
    space = dp.vector_domain(dp.atom_domain(bounds=(0.0, 10.0))), dp.symmetric_distance()
    pipeline = space >> dp.t.then_resize(size=4, constant=5.0) >> dp.t.then_mean()
    assert pipeline([1.0, 3.0]) == 3.5
    assert pipeline.map(1) == dp.t.make_mean(floats(size=4), dp.symmetric_distance()).map(2)


@pytest.mark.parametrize(
    "domain, message",
    [
        (dp.vector_domain(dp.atom_domain(bounds=(0.0, 1.0))), "size must be known"),
        (floats(size=0), "must be positive"),
        (dp.vector_domain(dp.atom_domain(T="f64", nan=False), size=3), "must be bounded"),
        (dp.vector_domain(dp.atom_domain(bounds=(0, 10)), size=3), "must be floats"),
        (dp.atom_domain(bounds=(0.0, 1.0)), "vector_domain"),
        (floats(T="f32", size=2**24 + 1), "not exactly a value of f32"),
    ],
)
def test_bad_domains_are_refused(domain, message):
    with pytest.raises(MakeTransformationError, match=message) as error:
        dp.t.make_mean(domain, dp.symmetric_distance())
    assert error.value.parameter == "input_domain"


def test_bad_metric_is_refused():
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_mean(floats(), dp.l1_distance("f64"))
    assert error.value.parameter == "input_metric"


def test_overflowing_bounds_are_refused():
    largest = 1.7976931348623157e308
    with pytest.raises(ArithmeticOverflowError):
        dp.t.make_mean(floats(bounds=(0.0, largest / 2), size=3), dp.symmetric_distance())


@pytest.mark.parametrize("d_in", [-1, 0.5, float("nan")])
def test_bad_distances_are_refused(d_in):
    with pytest.raises(FailedMapError) as error:
        dp.t.make_mean(floats(), dp.symmetric_distance()).map(d_in)
    assert error.value.parameter == "d_in"


def test_out_of_domain_data_is_refused():
    t = dp.t.make_mean(floats(), dp.symmetric_distance())
    for data in ([1.0, 2.0], [1.0, 2.0, 11.0], [1.0, 2.0, float("nan")], [1, 2, 3]):
        with pytest.raises(FailedFunctionError):
            t(data)


# -- contract ----------------------------------------------------------------------------------


def test_contract_verifies():
    # The search draws distances up to the type's limit, so reaching a pair within 1% of the
    # map takes a longer search than the profile's default (60 examples reach 0.977).
    report = contract_of(dp.t.make_mean).verify(max_examples=150)
    assert report.examples > 0 and 0.99 < report.max_tightness <= 1


def test_wrong_maps_are_refuted():
    """Without the ulp term the map fails on a concrete pair; a halved map is found by search."""
    domain = floats(bounds=(0.0, 1.0), size=3)
    t = dp.t.make_mean(domain, dp.symmetric_distance())
    x, x_prime = [0.0, 0.0, 0.7], [0.0, 0.0, 0.0]
    exact_gap = abs(Fraction(t(x)) - Fraction(t(x_prime)))
    # c * |sum difference|, exactly: the product rounded up, so the outputs are further apart
    assert exact_gap > Fraction(1 / 3) * Fraction(0.7)
    assert exact_gap <= Fraction(t.map(2))

    fixed = dataclasses.replace(
        contract_of(dp.t.make_mean),
        arguments=lambda: st.just(
            {"input_domain": domain, "input_metric": dp.symmetric_distance()}
        ),
    )
    with pytest.raises(StabilityViolation):
        fixed.verify(map_override=lambda d_in: (d_in // 2) * (1 / 3) / 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    t = dp.t.make_mean(floats(size=100), dp.symmetric_distance())
    assert t.map(2) == 0.10000000000003129
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_mean(dp.vector_domain(dp.atom_domain(bounds=(0.0, 1.0))), dp.symmetric_distance())
    assert error.value.condition == "input-domain-sized"
