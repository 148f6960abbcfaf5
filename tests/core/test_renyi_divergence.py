"""dp.renyi_divergence(): OpenDP 0.16's Rényi-DP measure as a tag nothing in certdp spends.

OpenDP 0.16 (checked with the shared venv): ``dp.renyi_divergence()`` prints
``RenyiDivergence``, its ``distance_type`` is ``Function<f64, f64>``; only
``make_user_measurement`` (honest-but-curious) produces measurements under it and
``make_composition`` composes them; certdp likewise (tests/combinators/test_renyi_composition.py).
Every other certdp constructor that takes a measure refuses this one, typed.
"""

from __future__ import annotations

import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError, FailedMapError, MakeMeasurementError
from certdp.core.measures import Measure
from certdp.core.transformation import Measurement


def _space():
    return dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64")


def _rdp_measurement():
    """A measurement object declared under Rényi DP (built directly, with no feature)."""
    domain, metric = _space()
    return Measurement(
        input_domain=domain,
        function=lambda x: x,
        input_metric=metric,
        output_measure=dp.renyi_divergence(),
        privacy_map=lambda d_in: lambda alpha: alpha * d_in,
    )


def test_the_measure_is_opendps():
    measure = dp.renyi_divergence()
    assert isinstance(measure, Measure) and type(measure) is dp.RenyiDivergence
    assert repr(measure) == "RenyiDivergence"  # OpenDP 0.16: str(dp.renyi_divergence())
    assert measure.distance_type == "Function<f64, f64>"  # OpenDP 0.16's distance_type
    assert measure == dp.renyi_divergence() and hash(measure) == hash(dp.renyi_divergence())
    assert measure != dp.max_divergence() and measure != dp.zero_concentrated_divergence()


def test_the_measure_is_immutable():
    measure = dp.renyi_divergence()
    with pytest.raises(DPError):
        measure.distance_type = "f64"
    assert measure.distance_type == "Function<f64, f64>"


@pytest.mark.parametrize(
    "d_a, d_b", [(1.0, 2.0), (lambda a: a, lambda a: 2 * a), ((1.0, 0.0), (2.0, 0.0))]
)
def test_no_two_distances_are_ever_ordered(d_a, d_b):
    with pytest.raises(FailedMapError, match="not compared") as raised:
        dp.RenyiDivergence.ordered(d_a, d_b)
    assert raised.value.parameter == "d_out"


def test_check_under_renyi_is_refused_typed():
    with pytest.raises(FailedMapError):
        _rdp_measurement().check(1.0, lambda alpha: alpha)


@pytest.mark.parametrize(
    "build",
    [
        lambda m: dp.c.make_fix_delta(m, 1e-6),
        lambda m: dp.c.make_zCDP_to_approxDP(m),
        lambda m: dp.c.make_approximate(m),
        lambda m: dp.c.make_pureDP_to_zCDP(m),
        lambda m: dp.c.make_privacy_filter(m, d_in=1.0, d_out=lambda alpha: alpha),
    ],
    ids=["fix_delta", "zCDP_to_approxDP", "approximate", "pureDP_to_zCDP", "filter"],
)
def test_combinators_refuse_a_renyi_measurement(build):
    with pytest.raises(MakeMeasurementError) as raised:
        build(_rdp_measurement())
    assert raised.value.parameter in ("measurements", "measurement", "odometer")


def test_compositors_and_mechanisms_refuse_the_measure():
    domain, metric = _space()
    measure = dp.renyi_divergence()
    # Since #20 the odometer accepts the measure (its loss is a curve); the filter over it has no
    # proven rule and refuses it, typed, naming the odometer.
    odometer = dp.c.make_fully_adaptive_composition(domain, metric, measure)
    with pytest.raises(MakeMeasurementError, match="RenyiDivergence") as caught:
        dp.c.make_privacy_filter(odometer, d_in=1.0, d_out=1.0)
    assert caught.value.parameter == "odometer"
    with pytest.raises(MakeMeasurementError, match="RenyiDivergence"):
        dp.c.make_adaptive_composition(domain, metric, measure, d_in=1.0, d_mids=[lambda a: a])
    with pytest.raises(MakeMeasurementError, match="RenyiDivergence"):
        dp.m.make_gaussian(domain, metric, 1.0, MO=measure)
