import math

import pytest

import certdp.prelude as dp
from certdp.core.errors import (
    DomainMismatchError,
    FailedFunctionError,
    FailedMapError,
    FeatureNotEnabledError,
    MetricMismatchError,
)

INTS = dp.vector_domain(dp.atom_domain(T="i32"))
BOOLS = dp.vector_domain(dp.atom_domain(T="bool"))


def doubling(input_domain=INTS, factor=2):
    return dp.Transformation(
        input_domain,
        input_domain,
        lambda xs: [x for x in xs for _ in range(factor)],
        dp.symmetric_distance(),
        dp.symmetric_distance(),
        lambda d_in: factor * d_in,
    )


def test_invoke_map_check():
    t = doubling()
    assert t([1, 2]) == [1, 1, 2, 2]
    assert t.map(3) == 6
    assert t.check(3, 6) and not t.check(3, 5)


def test_invoke_rejects_out_of_domain_without_echoing_data():
    with pytest.raises(FailedFunctionError, match="not a member of .*: type: .*range") as error:
        doubling()([1, 2**40])
    assert "1099511627776" not in str(error.value)


@pytest.mark.parametrize(
    "d_in, rule", [(-1, "non-negative"), (1.5, "integer"), (True, "number"), ("1", "number")]
)
def test_map_rejects_bad_d_in(d_in, rule):
    with pytest.raises(FailedMapError, match=rule) as error:
        doubling().map(d_in)
    assert error.value.parameter == "d_in"


def test_numeric_d_in_rules():
    t = dp.Transformation(
        dp.atom_domain(T="f64", nan=False),
        dp.atom_domain(T="f64", nan=False),
        abs,
        dp.absolute_distance("f64"),
        dp.absolute_distance("f64"),
        lambda d: d,
    )
    assert t.map(0.5) == 0.5
    with pytest.raises(FailedMapError, match="NaN"):
        t.map(math.nan)
    with pytest.raises(FailedMapError, match="non-negative"):
        t.map(-0.5)


def test_chaining_composes_functions_and_maps():
    chain = doubling() >> doubling(factor=3)
    assert chain([1]) == [1] * 6
    assert chain.map(1) == 6
    equal = doubling() >> dp.t.then_is_equal(1)
    assert equal([1, 2]) == [True, True, False, False]
    assert equal.map(2) == 4


def test_chaining_checks_domains_and_metrics():
    is_equal = dp.t.make_is_equal(INTS, dp.symmetric_distance(), 1)
    with pytest.raises(DomainMismatchError, match="output domain"):
        is_equal >> doubling()
    ordered = dp.t.make_is_equal(INTS, dp.insert_delete_distance(), 1)
    with pytest.raises(MetricMismatchError, match="output metric"):
        doubling() >> ordered


def test_partial_constructor_from_space_and_transformation():
    space = (INTS, dp.symmetric_distance())
    t = space >> dp.t.then_is_equal(3)
    assert t([3, 4]) == [True, False]
    assert repr(dp.t.then_is_equal(3)) == "then_is_equal(...)"


def test_measurement_chain():
    constant = dp.Measurement(
        BOOLS, lambda xs: len(xs), dp.symmetric_distance(), dp.max_divergence(), lambda d: 0.0
    )
    chain = (INTS, dp.symmetric_distance()) >> dp.t.then_is_equal(1) >> constant
    assert isinstance(chain, dp.Measurement)
    assert chain([1, 2, 3]) == 3
    assert chain.map(5) == 0.0
    assert chain.output_measure == dp.max_divergence()


def test_features():
    with pytest.raises(FeatureNotEnabledError, match="'contrib' must be enabled"):
        dp.assert_features("contrib")
    dp.enable_features("contrib")
    dp.assert_features("contrib")
    dp.disable_features("contrib")
    with pytest.raises(FeatureNotEnabledError):
        dp.assert_features("contrib")
    with pytest.raises(FeatureNotEnabledError, match="unknown feature"):
        dp.enable_features("no-such-feature")
