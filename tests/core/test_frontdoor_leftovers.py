"""Issue 20, the front door's OpenDP-compatibility leftovers: each behaviour is OpenDP 0.16's
(checked against the installed opendp when the tests were written), or a typed refusal."""

import pytest

import certdp.prelude as dp
from certdp.core.errors import FailedFunctionError, FeatureNotEnabledError

VEC_F64 = dp.vector_domain(dp.atom_domain(T="f64", nan=False))


def _laplace_then_clamp():
    measurement = dp.m.make_laplace(VEC_F64, dp.l1_distance(T="f64"), scale=1.0)
    clamp = dp.t.make_clamp(VEC_F64, dp.symmetric_distance(), bounds=(0.0, 1.0))
    return measurement, clamp


def test_measurement_then_transformation_needs_no_honest_but_curious():
    # OpenDP 0.16: ``m >> t`` hands ``t.function`` to make_chain_pm, under "contrib" alone
    dp.enable_features("contrib")
    measurement, clamp = _laplace_then_clamp()
    chained = measurement >> clamp
    assert isinstance(chained, dp.Measurement)
    assert chained.map(1.0) == measurement.map(1.0) == 1.0
    assert chained.output_measure == measurement.output_measure
    release = chained([5.0, 0.5, -3.0])
    assert len(release) == 3 and all(0.0 <= value <= 1.0 for value in release)


def test_measurement_then_transformation_refuses_a_release_outside_its_domain():
    # a deliberate difference: OpenDP runs t.function on any release; certdp admits it first
    dp.enable_features("contrib")
    measurement = dp.m.make_laplace(VEC_F64, dp.l1_distance(T="f64"), scale=1.0)
    count = dp.t.make_count(dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance())
    chained = measurement >> count
    with pytest.raises(FailedFunctionError, match="postprocessing function raised"):
        chained([1.0])


def test_measurement_then_other_callable_still_needs_honest_but_curious():
    dp.enable_features("contrib")
    measurement, _ = _laplace_then_clamp()
    with pytest.raises(FeatureNotEnabledError, match="honest-but-curious"):
        measurement >> (lambda release: release)


def test_a_transformation_whose_input_domain_was_reassigned_needs_honest_but_curious():
    dp.enable_features("contrib")
    measurement, clamp = _laplace_then_clamp()
    clamp.input_domain = dp.vector_domain(dp.atom_domain(T="f64"))
    with pytest.raises(FeatureNotEnabledError, match="honest-but-curious"):
        measurement >> clamp
