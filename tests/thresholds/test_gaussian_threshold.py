"""make_gaussian_threshold: noisy counts of the keys that clear a threshold (Approximate zCDP)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

import certdp.prelude as dp
from certdp.contracts.contract import PrivacyViolation
from certdp.core.errors import ContractError, FailedMapError, MakeMeasurementError
from certdp.measurements._threshold import gaussian_threshold_delta
from certdp.measurements.gaussian_threshold.contract import CONTRACT, tail_lower
from certdp.numeric import round_rational

make = dp.m.make_gaussian_threshold


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # make_gaussian_threshold is not vetted in this branch yet


def space(T="i32", D=None):
    domain = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T=T))
    return domain, dp.l02inf_distance(dp.absolute_distance(T=D or T))


def discrete_tail(sigma: float, t: int) -> mpmath.mpf:
    """P[Z >= t], Z ~ N_Z(0, sigma^2), t >= 0, summed from the mass function at 60 digits."""
    with mpmath.workdps(60):
        s = 2 * mpmath.mpf(sigma) ** 2
        reach = int(60 * sigma) + 60
        mass = [mpmath.exp(-(mpmath.mpf(z) ** 2) / s) for z in range(-reach, reach + t + 1)]
        total = mpmath.fsum(mass)
        return mpmath.fsum(mass[reach + t :]) / total


def continuous_tail(sigma: float, t: int) -> mpmath.mpf:
    """P[X > t], X ~ N(0, sigma^2)."""
    with mpmath.workdps(60):
        return mpmath.erfc(mpmath.mpf(t) / (mpmath.mpf(sigma) * mpmath.sqrt(2))) / 2


def reduced(d_in):
    l0, l2, linf = d_in
    m = math.floor(linf)
    q = min(math.floor(Fraction(l2) ** 2), m * m * l0)
    return l0, q, min(m, math.isqrt(q))


# OpenDP 0.16.0's map values, recorded with
#   dp.m.make_gaussian_threshold(map_domain(atom_domain(T=str), atom_domain(T="i32")),
#       l02inf_distance(absolute_distance(T="i32")), scale, threshold).map(d_in)
OPENDP = [
    (1.0, 4, (1, 1, 1), (0.5, 0.0013498987536877394)),
    (1.0, 5, (1, 1, 1), (0.5, 3.167125760228373e-05)),
    (1.0, 5, (2, 1, 1), (0.5, 6.334151213605033e-05)),
    (1.0, 5, (2, 5, 1), (1.0000000000000002, 6.334151213605033e-05)),
    (1.0, 5, (2, 5, 3), (9.000000000000002, 0.044982705997083094)),
    (1.0, 8, (1, 3, 6), (4.5, 2.866516126687202e-07)),
    (1.0, -3, (1, 1, 1), (0.5, 0.022750137373805046)),
    (2.0, 10, (1, 1, 1), (0.125, 3.3976766644627787e-06)),
    (2.5, 14, (4, 4, 1), (0.32, 3.985771543923988e-07)),
    (10.0, 50, (3, 3, 1), (0.015000000000000003, 1.4375516390607856e-06)),
    (5.0, 30, (2, 4, 2), (0.16000000000000003, 2.1435203723108032e-08)),
]


@pytest.mark.parametrize("scale, threshold, d_in, opendp", OPENDP)
def test_rho_is_opendps_and_delta_bounds_the_exact_survival(scale, threshold, d_in, opendp):
    rho, delta = make(*space(), scale, threshold).map(d_in)
    l0, q, linf = reduced(d_in)
    # rho: the exact q / (2 sigma^2) rounded up; OpenDP's is the same up to its float rounding
    assert rho == round_rational(Fraction(q) / (2 * Fraction(scale) ** 2), "f64", "up")
    assert rho <= opendp[0]
    assert rho == pytest.approx(opendp[0], rel=1e-15)
    # delta: the lemma's bound, above the exact 1 - (1 - P[Z >= t])^l0 and close to it here
    t = abs(threshold) - linf
    with mpmath.workdps(60):
        exact = 1 - (1 - discrete_tail(scale, t)) ** l0
    assert delta == gaussian_threshold_delta(Fraction(scale), t, l0)
    assert Fraction(delta) >= Fraction(mpmath.nstr(exact, 50, strip_zeros=False))
    assert delta == pytest.approx(float(exact), rel=1e-12)
    # OpenDP's delta is the continuous tail strictly beyond t (enclosed from above, within
    # 10^-5 relative), below the exact survival
    with mpmath.workdps(60):
        theirs = 1 - (1 - continuous_tail(scale, t)) ** l0
    assert float(theirs) <= opendp[1] <= float(theirs) * (1 + 1e-5)
    assert opendp[1] < float(exact)


def test_opendp_off_by_one_example():
    """sigma 1, threshold 4, a lone key of count 1 at d_in (1, 1, 1): it survives with
    probability P[Z >= 3] = 0.4567 %; OpenDP reports 0.13499 % (the continuous tail beyond 3)."""
    rho, delta = make(*space(), 1.0, 4).map((1, 1, 1))
    exact = tail_lower(Fraction(1), 3)  # a sympy lower bound of the exact survival
    assert abs(float(exact) - 0.004567171417803253) < 1e-15
    assert Fraction(delta) >= Fraction(str(exact.evalf(40)))
    assert 0.0013498987536877394 < float(exact) / 3
    assert rho == 0.5


def test_opendp_live_comparison():
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    domain = odp.map_domain(odp.atom_domain(T=str), odp.atom_domain(T="i32"))
    metric = odp.l02inf_distance(odp.absolute_distance(T="i32"))
    for scale, threshold, d_in, opendp in OPENDP:
        theirs = odp.m.make_gaussian_threshold(domain, metric, scale, threshold).map(d_in)
        assert theirs == opendp


def test_lone_keys_of_value_zero_cost_delta():
    """A key held on one side only with value 0 is changed under certdp's metric (1, 0, 0) and
    survives with probability P[Z >= threshold]: OpenDP returns (0, 0) here."""
    rho, delta = make(*space(), 1.0, 5).map((1, 0, 0))
    assert rho == 0.0
    assert delta == gaussian_threshold_delta(Fraction(1), 5, 1)
    assert delta == pytest.approx(float(discrete_tail(1.0, 5)), rel=1e-12)
    assert make(*space(), 1.0, 5).map((0, 3, 3)) == (0.0, 0.0)


def test_zero_scale():
    assert make(*space(), 0.0, 5).map((1, 1, 1)) == (math.inf, 1.0)
    assert make(*space(), 0.0, 5).map((1, 0, 0)) == (0.0, 0.0)
    assert make(*space(), 0.0, 0).map((1, 0, 0)) == (0.0, 1.0)
    assert make(*space(), 0.0, 3)({"a": 2, "b": 3, "c": 7}) == {"b": 3, "c": 7}
    assert make(*space(), 0.0, -3)({"a": -2, "b": -3, "c": -7}) == {"b": -3, "c": -7}


def test_release_is_sorted_thresholded_and_saturated():
    release = make(*space(), 1.0, 1000)
    out = release({"z": 2**31 - 1, "a": 0, "m": 2**31 - 5})
    assert list(out) == ["m", "z"]
    assert all(1000 <= value <= 2**31 - 1 for value in out.values())
    assert out["z"] >= 2**31 - 60
    assert make(*space("i8"), 1.0, -100)({"a": -128}) in ({"a": v} for v in range(-128, -99))


def test_large_scale_is_cheap_and_sound():
    """sigma = 10^6: the map answers from a few hundred exponentials, with delta above the
    survival of a lone key 3 sigma below the threshold (about 0.135 %)."""
    rho, delta = make(*space("i64"), 1e6, 3 * 10**6 + 1).map((1, 1, 1))
    assert rho == round_rational(Fraction(1, 2 * 10**12), "f64", "up")
    assert float(continuous_tail(1e6, 3 * 10**6)) < delta < 0.00136


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
    # fractional distances over integer data: l_inf floored, l2^2 floored (an integer here)
    assert measurement.map((1, 1.5, 1.5)) == measurement.map((1, 1, 1))
    assert measurement.map((2, 2.5, 2.5))[0] == measurement.map((2, 2.5, 2))[0] == 3.0


@pytest.mark.parametrize(
    "kwargs, parameter, message",
    [
        ({"MO": "ZeroConcentratedDivergence"}, "MO", "Approximate<ZeroConcentratedDivergence>"),
        ({"MO": dp.approximate(dp.max_divergence())}, "MO", "Approximate<ZeroConcentrated"),
        ({"input_domain": dp.vector_domain(dp.atom_domain(T="i32"))}, "input_domain", "map_domain"),
        (
            {"input_domain": dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="f64"))},
            "input_domain",
            "must not admit NaN",
        ),
        (
            {"input_metric": dp.l01inf_distance(dp.absolute_distance(T="i32"))},
            "input_metric",
            "l02inf_distance",
        ),
        ({"input_metric": dp.symmetric_distance()}, "input_metric", "l02inf_distance"),
        ({"scale": -1.0}, "scale", "negative"),
        ({"scale": math.nan}, "scale", "NaN"),
        ({"scale": math.inf}, "scale", "finite"),
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
    measurement = (domain, metric) >> dp.m.then_gaussian_threshold(scale=2.0, threshold=7)
    assert measurement.map((1, 1, 1)) == (0.125, gaussian_threshold_delta(Fraction(2), 6, 1))


def test_contract_verify():
    CONTRACT.verify(max_examples=40)


def test_opendp_map_is_refuted():
    """A map stating OpenDP's delta (the continuous tail strictly beyond the distance) is
    refuted by a concrete pair whose lone key survives more often than that."""

    def opendp_like(d_in):
        l0, q, linf = reduced(d_in)
        if linf == 0:
            return (0.0, 0.0)
        return (q / 2, float(1 - (1 - continuous_tail(1.0, 5 - linf)) ** l0))

    domain, metric = space()
    built = make(domain, metric, 1.0, 5)
    kwargs = {"input_domain": domain, "input_metric": metric, "scale": 1.0, "threshold": 5}
    with pytest.raises(PrivacyViolation):
        CONTRACT.check_pair(built, kwargs, {"a": 1}, {}, (1, 1, 1), opendp_like((1, 1, 1)))
    with pytest.raises(PrivacyViolation):
        CONTRACT.check_pair(built, kwargs, {}, {"a": 0}, (1, 0, 0), opendp_like((1, 0, 0)))
    # ... and the runtime postcondition refuses OpenDP's value at (1, 1, 1)
    arguments = CONTRACT.bind(
        (), {**kwargs, "k": None, "MO": "Approximate<ZeroConcentratedDivergence>"}
    )
    with pytest.raises(ContractError):
        CONTRACT.check_map_value(arguments, built, (1, 1, 1), opendp_like((1, 1, 1)))


def test_runtime_contracts():
    dp.enable_contracts()
    try:
        measurement = make(*space(), 2.5, 14)
        assert measurement.map((4, 4, 1))[1] >= 3.985771543923988e-07
        with pytest.raises(ContractError):
            make(*space(), 1.0, 5, MO="ZeroConcentratedDivergence")
    finally:
        dp.disable_contracts()


def test_a_distance_class_built_on_tuple_is_read_by_its_stored_items():
    class Triple(tuple):
        def __iter__(self):
            return iter((0, 0, 0))  # an override must not shrink the distance

    measurement = make(*space(), 1.0, 5)
    assert measurement.map(Triple((1, 1, 1))) == measurement.map((1, 1, 1))
    assert measurement.map([2, 5, 3]) == measurement.map((2, 5, 3))
