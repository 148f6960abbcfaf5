"""The contract engine has teeth: wrong maps are refuted with concrete pairs."""

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import D_IN, StabilityViolation, at_least
from certdp.contracts.neighbours import neighbours
from certdp.core.errors import ContractError

CONTRACT = contract_of(dp.t.make_is_equal)


def test_is_equal_contract_holds_and_reports_tightness():
    report = CONTRACT.verify()
    assert report.examples > 0
    assert report.max_tightness == 1.0  # the map d_in -> d_in is attained
    print(report)


@pytest.mark.parametrize(
    "wrong_map", [lambda d: d - 1, lambda d: d / 2], ids=["d_in - 1", "halved"]
)
def test_wrong_map_is_refuted_with_a_concrete_pair(wrong_map):
    with pytest.raises(StabilityViolation) as refutation:
        CONTRACT.verify(map_override=wrong_map)
    violation = refutation.value
    metric = dp.symmetric_distance()
    # the counterexample is real: the inputs are neighbours and the outputs too far apart
    assert metric.distance(violation.x, violation.x_prime) <= violation.d_in
    assert violation.d_out_observed > wrong_map(violation.d_in)


@pytest.mark.parametrize("metric", [dp.symmetric_distance(), dp.insert_delete_distance()], ids=repr)
@pytest.mark.parametrize("size", [None, 4])
@given(data=st.data(), d_in=st.integers(0, 5))
@settings(max_examples=30)
def test_neighbour_strategies_yield_valid_pairs(metric, size, data, d_in):
    domain = dp.vector_domain(dp.atom_domain(bounds=(-3, 3)), size=size)
    x, x_prime = data.draw(neighbours(domain, metric, d_in))
    assert domain.member(x) and domain.member(x_prime)
    assert metric.distance(x, x_prime) <= d_in


@given(data=st.data(), d_in=st.sampled_from([0, 0.5, 2.0]))
@settings(max_examples=30)
def test_numeric_neighbours(data, d_in):
    domain = dp.vector_domain(dp.atom_domain(bounds=(-1.0, 1.0)), size=3)
    for metric in (dp.l1_distance("f64"), dp.l2_distance("f64")):
        x, x_prime = data.draw(neighbours(domain, metric, d_in))
        assert metric.close(x, x_prime, d_in)
    scalar = dp.atom_domain(bounds=(0.0, 4.0))
    x, x_prime = data.draw(neighbours(scalar, dp.absolute_distance("f64"), d_in))
    assert abs(x - x_prime) <= d_in


def test_runtime_precondition_names_its_id():
    dp.enable_contracts()
    with pytest.raises(
        ContractError, match=r"\[input-metric-symmetric-or-insert-delete\]"
    ) as error:
        dp.t.make_is_equal(dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance("i32"), 3)
    assert error.value.condition == "input-metric-symmetric-or-insert-delete"
    with pytest.raises(ContractError, match=r"\[value-in-carrier-type\]"):
        dp.t.make_is_equal(dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), 1.5)


def test_runtime_postconditions_are_checked():
    dp.enable_contracts()
    t = dp.t.make_is_equal(dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), 3)
    assert t.map(4) == 4
    assert t.last_map_slack == 0
    # sabotage the map and the function: the contract notices both
    t._map = lambda d_in: d_in - 1
    with pytest.raises(ContractError, match=r"\[stability-map\].*below the proof's bound d_in"):
        t.map(4)
    t.function = lambda data: [1 for _ in data]
    with pytest.raises(ContractError, match=r"\[output-domain\]"):
        t([3])


def test_contracts_off_means_no_checks():
    t = dp.t.make_is_equal(dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), 3)
    t._map = lambda d_in: d_in - 1
    assert t.map(4) == 3  # nothing checks it: contracts are off by default
    assert t.postcondition is None


def test_exact_comparison_with_irrational_bounds():
    assert at_least(1.0000000000000002, sympy.Integer(1))
    assert not at_least(1.4142135623730950, sympy.sqrt(2))  # the nearest double is below sqrt(2)
    assert at_least(1.4142135623730951, sympy.sqrt(2) - sympy.Rational(1, 10**30))
    assert at_least(float("inf"), D_IN.subs(D_IN, 10**100))
