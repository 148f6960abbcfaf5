"""make_gaussian's distance-type test refuses a metric whose ``T`` is not a carrier type (forced
past the metric's immutability) with the typed error naming input_metric (it used to raise an
untyped AttributeError)."""

import pytest

import certdp.prelude as dp
from certdp.core.errors import MakeMeasurementError


@pytest.mark.parametrize("replacement", [5, "f64", None, object()])
def test_a_metric_whose_type_was_replaced_is_refused_typed(replacement):
    metric = dp.l2_distance(T="f64")
    with pytest.raises(dp.DPError):  # metrics are immutable: the public write is refused
        metric.T = replacement
    object.__setattr__(metric, "T", replacement)  # forced past it, as a bypass would
    with pytest.raises(MakeMeasurementError) as error:
        dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T="i32")), metric, 1.0)
    assert error.value.parameter == "input_metric"
