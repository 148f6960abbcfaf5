"""make_laplace_threshold: noisy counts of the keys that clear a threshold (Approximate DP)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import certdp.prelude as dp
from certdp.contracts.contract import PrivacyViolation
from certdp.core.errors import ContractError, FailedMapError, MakeMeasurementError
from certdp.measurements._threshold import threshold_delta
from certdp.measurements.laplace_threshold.contract import CONTRACT, survival

make = dp.m.make_laplace_threshold


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # make_laplace_threshold is not vetted in this branch yet


def space(T="i32", D=None):
    domain = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T=T))
    return domain, dp.l01inf_distance(dp.absolute_distance(T=D or T))


def exact_tail(scale: float, t: int) -> float:
    """P[Z >= t], Z ~ DLap(0, scale), t >= 0, in floats (for comparisons with a tolerance)."""
    return math.exp(-t / scale) / (1 + math.exp(-1 / scale))


# OpenDP 0.16.0's map values, recorded with
#   dp.m.make_laplace_threshold(map_domain(atom_domain(T=str), atom_domain(T="i32")),
#       l01inf_distance(absolute_distance(T="i32")), scale, threshold).map(d_in)
OPENDP = [
    (1.0, 5, (1, 1, 1), (1.0, 0.004925833956035741)),
    (1.0, 10, (1, 1, 1), (1.0, 3.319000812207484e-05)),
    (1.0, 5, (2, 1, 1), (1.0, 0.009827404071909074)),
    (1.0, 5, (2, 5, 1), (2.0, 0.009827404071909074)),
    (1.0, 5, (2, 5, 3), (5.0, 0.07146976608476241)),
    (1.0, 5, (1, 3, 6), (3.0, 0.03639726343516558)),
    (1.0, -3, (1, 1, 1), (1.0, 0.03639726343516558)),
    (1.0, 1, (1, 1, 1), (1.0, 0.2689414213699952)),
    (2.5, 14, (4, 4, 1), (1.6, 0.008826097682295475)),
]


@pytest.mark.parametrize("scale, threshold, d_in, opendp", OPENDP)
def test_epsilon_is_opendps_and_delta_is_the_exact_survival(scale, threshold, d_in, opendp):
    epsilon, delta = make(*space(), scale, threshold).map(d_in)
    assert epsilon == opendp[0]
    l0, l1, linf = d_in
    l1 = min(l1, linf * l0)
    linf = min(linf, l1)
    exact = 1 - (1 - exact_tail(scale, abs(threshold) - linf)) ** l0
    assert delta == threshold_delta(Fraction(scale), abs(threshold) - linf, l0)
    assert delta == pytest.approx(exact, rel=1e-12)
    # OpenDP's value is the tail one step further out: certdp's at threshold + 1 (by magnitude)
    further = threshold + 1 if threshold >= 0 else threshold - 1
    _, delta_further = make(*space(), scale, further).map(d_in)
    assert delta_further <= opendp[1]
    assert delta_further == pytest.approx(opendp[1], rel=1e-12)
    # ... so OpenDP's delta is below the exact probability of the event it bounds
    assert opendp[1] < exact


def test_opendp_2922_histogram_example():
    """OpenDP #2922: count_by (one record per user) then laplace_threshold(scale=1, threshold=5):
    d_in = 1 user gives (1, 1, 1). A user's key of count 1 survives with probability
    P[1 + Z >= 5] = e^-4 / (1 + e^-1) = 1.339 %; OpenDP reported 0.4926 % (measured 1.31 %)."""
    measurement = make(*space(), 1.0, 5)
    epsilon, delta = measurement.map((1, 1, 1))
    exact = survival(Fraction(1), 5, 1)  # sympy, exact
    assert abs(float(exact) - 0.013389804932698) < 1e-12
    assert Fraction(delta) >= Fraction(str(exact.evalf(40)))
    assert 0.004925833956035741 < float(exact)  # OpenDP's reported delta is below it
    assert epsilon == 1.0


def test_opendp_live_comparison():
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    domain = odp.map_domain(odp.atom_domain(T=str), odp.atom_domain(T="i32"))
    metric = odp.l01inf_distance(odp.absolute_distance(T="i32"))
    for scale, threshold, d_in, opendp in OPENDP:
        theirs = odp.m.make_laplace_threshold(domain, metric, scale, threshold).map(d_in)
        assert theirs == opendp


def test_lone_keys_of_value_zero_cost_delta():
    """A key held on one side only with value 0 is changed under certdp's metric (1, 0, 0) and
    survives with probability P[Z >= threshold]: OpenDP returns (0, 0) here."""
    epsilon, delta = make(*space(), 1.0, 5).map((1, 0, 0))
    assert epsilon == 0.0
    assert delta == threshold_delta(Fraction(1), 5, 1)
    assert delta == pytest.approx(exact_tail(1.0, 5), rel=1e-12)
    assert make(*space(), 1.0, 5).map((0, 3, 3)) == (0.0, 0.0)


def test_zero_scale():
    assert make(*space(), 0.0, 5).map((1, 1, 1)) == (math.inf, 1.0)
    assert make(*space(), 0.0, 5).map((1, 0, 0)) == (0.0, 0.0)
    assert make(*space(), 0.0, 0).map((1, 0, 0)) == (0.0, 1.0)
    release = make(*space(), 0.0, 3)
    assert release({"a": 2, "b": 3, "c": 7}) == {"b": 3, "c": 7}
    assert make(*space(), 0.0, -3)({"a": -2, "b": -3, "c": -7}) == {"b": -3, "c": -7}


def test_release_is_sorted_thresholded_and_saturated():
    release = make(*space(), 1.0, 1000)
    out = release({"z": 2**31 - 1, "a": 0, "m": 2**31 - 5})
    assert list(out) == ["m", "z"]
    assert all(1000 <= value <= 2**31 - 1 for value in out.values())
    assert out["z"] >= 2**31 - 60
    assert make(*space("i8"), 1.0, -100)({"a": -128}) in ({"a": v} for v in range(-128, -99))


def test_map_refusals():
    measurement = make(*space(), 1.0, 5)
    with pytest.raises(FailedMapError, match="must not be smaller in magnitude"):
        measurement.map((1, 6, 6))
    with pytest.raises(FailedMapError, match="triple"):
        measurement.map(1)
    with pytest.raises(FailedMapError, match="l0 must be a non-negative integer"):
        measurement.map((1.5, 1, 1))
    with pytest.raises(FailedMapError, match="lp must be non-negative"):
        measurement.map((1, -1, 1))
    with pytest.raises(FailedMapError, match="linf must be finite"):
        measurement.map((1, 1, math.nan))
    with pytest.raises(FailedMapError, match="l0 must be below 2\\^64"):
        measurement.map((1 << 64, 1, 1))
    # fractional distances over integer data are floored, as OpenDP does
    assert measurement.map((1, 1.5, 1.5)) == measurement.map((1, 1, 1))


@pytest.mark.parametrize(
    "kwargs, parameter, message",
    [
        ({"MO": "MaxDivergence"}, "MO", "Approximate<MaxDivergence>"),
        ({"input_domain": dp.vector_domain(dp.atom_domain(T="i32"))}, "input_domain", "map_domain"),
        (
            {"input_domain": dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="f64"))},
            "input_domain",
            "must not admit NaN",
        ),
        (
            {"input_metric": dp.l02inf_distance(dp.absolute_distance(T="i32"))},
            "input_metric",
            "l01inf_distance",
        ),
        ({"input_metric": dp.symmetric_distance()}, "input_metric", "l01inf_distance"),
        ({"scale": -1.0}, "scale", "negative"),
        ({"scale": math.nan}, "scale", "NaN"),
        ({"k": -3}, "k", "only valid for domains over floats"),
        ({"threshold": 5.0}, "threshold", "integer of i32"),
        ({"threshold": 2**31}, "threshold", "integer of i32"),
        ({"threshold": True}, "threshold", ""),
    ],
)
def test_bad_input(kwargs, parameter, message):
    domain, metric = space()
    arguments = {
        "input_domain": domain,
        "input_metric": metric,
        "scale": 1.0,
        "threshold": 5,
        **kwargs,
    }
    with pytest.raises(MakeMeasurementError) as error:
        make(**arguments)
    assert error.value.parameter == parameter
    assert message in str(error.value)


def test_then_form_and_float_distance_type():
    domain, metric = space("i64", "f64")
    measurement = (domain, metric) >> dp.m.then_laplace_threshold(scale=2.0, threshold=7)
    assert measurement.map((1, 1, 1)) == (0.5, threshold_delta(Fraction(2), 6, 1))


def test_contract_verify():
    CONTRACT.verify()


def test_opendp_map_is_refuted():
    """A map stating OpenDP's delta (the tail strictly beyond the distance) is refuted by a
    concrete pair whose lone key survives more often than that."""

    def opendp_like(d_in):
        l0, l1, linf = d_in
        l1 = min(l1, linf * l0)
        linf = min(linf, l1)
        if l1 == 0:
            return (0.0, 0.0)
        distance = 5 - linf + 1
        return (float(l1), threshold_delta(Fraction(1), distance, l0))

    domain, metric = space()
    built = make(domain, metric, 1.0, 5)
    kwargs = {"input_domain": domain, "input_metric": metric, "scale": 1.0, "threshold": 5}
    with pytest.raises(PrivacyViolation):
        CONTRACT.check_pair(built, kwargs, {"a": 1}, {}, (1, 1, 1), opendp_like((1, 1, 1)))
    with pytest.raises(PrivacyViolation):
        CONTRACT.check_pair(built, kwargs, {}, {"a": 0}, (1, 0, 0), opendp_like((1, 0, 0)))


def test_runtime_contracts():
    dp.enable_contracts()
    try:
        measurement = make(*space(), 2.5, 14)
        assert measurement.map((4, 4, 1))[1] >= 0.013145493235830585
        with pytest.raises(ContractError):
            make(*space(), 1.0, 5, MO="MaxDivergence")
    finally:
        dp.disable_contracts()


def test_a_distance_class_built_on_tuple_is_read_by_its_stored_items():
    """A transformation may state its triple as a tuple subclass (a Triple in the product
    order); the map reads the items the tuple stores, not what an override presents."""

    class Triple(tuple):
        def __iter__(self):
            return iter((0, 0, 0))  # an override must not shrink the distance

    measurement = make(*space(), 1.0, 5)
    assert measurement.map(Triple((1, 1, 1))) == measurement.map((1, 1, 1))
    assert measurement.map([2, 5, 3]) == measurement.map((2, 5, 3))

    class Listed(list):
        pass

    with pytest.raises(FailedMapError, match="triple"):
        measurement.map(Listed([1, 1, 1]))
