"""make_ordered_random: a uniform random order (chi-squared test), OpenDP 0.16's map, bad input,
the coupled contract, and refutations of a wrong map and of a function that does not shuffle."""

import collections
import dataclasses
import itertools
import math

import pytest
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import StabilityViolation
from certdp.core.errors import FailedMapError, MakeTransformationError


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


@pytest.mark.parametrize(
    "metric, output",
    [(dp.symmetric_distance(), dp.insert_delete_distance()),
     (dp.change_one_distance(), dp.hamming_distance())],
)  # fmt: skip
def test_map_and_metrics_like_opendp(metric, output):
    domain = dp.vector_domain(dp.atom_domain(T="i32"), size=3)
    t = dp.t.make_ordered_random(domain, metric)
    assert t.output_metric == output and t.output_domain == domain
    # OpenDP 0.16: make_ordered_random(vector_domain(atom_domain(T=int), size=3), metric).map(d)
    assert [t.map(d) for d in (0, 1, 2, 3)] == [0, 1, 2, 3]
    out = t([5, 6, 7])
    assert type(out) is list and sorted(out) == [5, 6, 7]


def test_orders_are_uniform_chi_squared():
    """6000 shuffles of 4 distinct records: 24 orders, 250 expected each.  The statistic has 23
    degrees of freedom; 89.1 is its 1 - 1e-9 quantile (scipy.stats.chi2.isf(1e-9, 23)), so a
    uniform shuffle fails this test with probability below 1e-9 (no fixed seed needed)."""
    t = dp.t.make_ordered_random(dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance())
    draws = 6000
    counts = collections.Counter(tuple(t([0, 1, 2, 3])) for _ in range(draws))
    assert len(counts) <= math.factorial(4)
    expected = draws / math.factorial(4)
    observed = [counts.get(order, 0) for order in itertools.permutations(range(4))]
    statistic = sum((o - expected) ** 2 / expected for o in observed)
    assert statistic < 89.1, (statistic, counts)


def test_arrays_and_strings_keep_their_records():
    import numpy as np

    t = dp.t.make_ordered_random(dp.vector_domain(dp.atom_domain(T="f32")), dp.symmetric_distance())
    out = t(np.array([1.5, -0.0], dtype=np.float32))
    assert sorted(x.hex() for x in out) == sorted([(1.5).hex(), (-0.0).hex()])
    t = dp.t.make_ordered_random(
        dp.vector_domain(dp.atom_domain(T="String")), dp.change_one_distance()
    )
    assert sorted(t(["b", "a", "b"])) == ["a", "b", "b"]


def test_a_non_integer_d_in_is_refused_under_change_one():
    t = dp.t.make_ordered_random(
        dp.vector_domain(dp.atom_domain(T="i32")), dp.change_one_distance()
    )
    with pytest.raises(FailedMapError) as error:
        t.map(0.5)
    assert error.value.parameter == "d_in"


def test_partial_form():
    space = (dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance())
    t = space >> dp.t.then_ordered_random()
    assert sorted(t([3, 1])) == [1, 3] and t.map(1) == 1


@pytest.mark.parametrize(
    "domain, metric, parameter",
    [
        (dp.atom_domain(T="i32"), dp.symmetric_distance(), "input_domain"),
        (dp.vector_domain(dp.atom_domain(T="i32")), dp.insert_delete_distance(), "input_metric"),
        (dp.vector_domain(dp.atom_domain(T="i32")), dp.hamming_distance(), "input_metric"),
        (dp.vector_domain(dp.atom_domain(T="i32")), "SymmetricDistance", "input_metric"),
    ],
)
def test_bad_input_is_refused_with_the_parameter(domain, metric, parameter):
    with pytest.raises(MakeTransformationError) as error:
        dp.t.make_ordered_random(domain, metric)
    assert error.value.parameter == parameter


def _fixed(metric):
    return dataclasses.replace(
        contract_of(dp.t.make_ordered_random),
        arguments=lambda: st.just(
            {
                "input_domain": dp.vector_domain(dp.atom_domain(T="i32"), size=None),
                "input_metric": metric,
            }
        ),
    )


def test_contract_verifies_and_a_halved_map_is_refuted():
    report = contract_of(dp.t.make_ordered_random).verify()
    assert report.examples > 0
    with pytest.raises(StabilityViolation):
        _fixed(dp.symmetric_distance()).verify(map_override=lambda d_in: d_in // 2)


def test_runtime_contract_names_the_broken_precondition():
    dp.enable_contracts()
    with pytest.raises(dp.ContractError) as error:
        dp.t.make_ordered_random(dp.vector_domain(dp.atom_domain(T="i32")), dp.hamming_distance())
    assert error.value.condition == "metric-pair"
