"""make_laplace_threshold / make_gaussian_threshold over float values (the 2^k grid, #21)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from scipy import stats

import certdp.prelude as dp
from certdp.core.errors import ContractError, FailedMapError, MakeMeasurementError
from certdp.measurements._threshold import grid_distance
from certdp.numeric import round_rational
from tests.laplace.stats import SIGNIFICANCE


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # the threshold constructors are re-vetted after merging


def space(p=1, T="f64", nan=False):
    domain = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T=T, nan=nan))
    metric = (dp.l01inf_distance if p == 1 else dp.l02inf_distance)(dp.absolute_distance(T=T))
    return domain, metric


def laplace(scale, threshold, k=None, T="f64"):
    return dp.m.make_laplace_threshold(*space(1, T), scale=scale, threshold=threshold, k=k)


def gaussian(scale, threshold, k=None, T="f64"):
    return dp.m.make_gaussian_threshold(*space(2, T), scale=scale, threshold=threshold, k=k)


def exact_laplace_delta(scale: Fraction, distance: int, l0: int) -> mpmath.mpf:
    """1 - (1 - P[Z >= distance])^l0 for Z ~ DLap(0, scale), at 200 digits."""
    with mpmath.workdps(200):
        s = mpmath.mpf(scale.numerator) / scale.denominator
        p = mpmath.exp(-distance / s) / (1 + mpmath.exp(-1 / s))
        return 1 - (1 - p) ** l0


def smallest_f64_at_least(x: mpmath.mpf) -> float:
    with mpmath.workdps(200):
        m, e = mpmath.frexp(x)
        exact = Fraction(int(mpmath.floor(m * 2**300)), 2**300) * Fraction(2) ** int(e)
        # the 300-bit truncation is below x by less than 2^-300 x: round that up
        candidate = round_rational(exact, "f64", "up")
        return candidate


# OpenDP 0.16.0's epsilon values, recorded with
#   opendp.prelude.m.make_laplace_threshold(map_domain(atom_domain(T=str),
#       atom_domain(T=float, nan=False)), l01inf_distance(absolute_distance(T=float)),
#       scale=1.0, threshold=10.0, k=k).map(d_in)[0]
OPENDP_EPSILON = [
    (None, (1, 1.0, 1.0), 1.0),
    (None, (2, 1.5, 1.0), 1.5),
    (None, (3, 0.3, 0.2), 0.3),
    (-10, (1, 1.0, 1.0), 1.0),
    (-10, (2, 1.5, 1.0), 1.5009765625),
    (-10, (3, 0.3, 0.2), 0.302734375),
    (0, (1, 1.0, 1.0), 1.0),
    (0, (2, 1.5, 1.0), 2.0),
    (0, (3, 0.3, 0.2), 3.0),
    (2, (1, 1.0, 1.0), 4.0),
    (2, (2, 1.5, 1.0), 8.0),
    (2, (3, 0.3, 0.2), 12.0),
]


@pytest.mark.parametrize("k, d_in, epsilon", OPENDP_EPSILON)
def test_laplace_epsilon_equals_opendp(k, d_in, epsilon):
    assert laplace(1.0, 10.0, k).map(d_in)[0] == epsilon


@pytest.mark.parametrize(
    "k, d_in, grid_l1, grid_linf, threshold_index",
    [
        (None, (1, 1.0, 1.0), 2**1074, 2**1074, 10 * 2**1074),
        (-10, (2, 1.5, 1.0), 1537, 1024, 10240),  # floor(1536 + 2 (1 - 2^-1064))
        (0, (3, 0.3, 0.2), 3, 1, 10),
        (2, (2, 1.5, 1.0), 2, 1, 3),  # 10 / 4 = 2.5, the tie goes up to 3
    ],
)
def test_laplace_delta_is_the_exact_tail_rounded_up(k, d_in, grid_l1, grid_linf, threshold_index):
    """delta is the least f64 >= 1 - (1 - P[Z >= index - linf'])^l0, with the grid scale."""
    kk = -1074 if k is None else k
    scale = Fraction(1) / Fraction(2) ** kk
    l0 = d_in[0]
    linf = min(grid_linf, grid_l1)
    expected = smallest_f64_at_least(exact_laplace_delta(scale, threshold_index - linf, l0))
    assert laplace(1.0, 10.0, k).map(d_in) == (
        round_rational(Fraction(grid_l1) / scale, "f64", "up"),
        expected,
    )


def test_laplace_delta_against_opendp():
    """OpenDP 0.16 bounds the tail strictly beyond the distance (#2922): certdp's delta is at
    least OpenDP's at k = 0 and k = 2, and the exact tail at the default k (where the tail at
    and beyond differ by a factor 1 - 2^-1074 and OpenDP's value is rounded further up)."""
    # opendp: make_laplace_threshold(..., scale=1.0, threshold=10.0, k=0).map((1, 1.0, 1.0))
    assert laplace(1.0, 10.0, 0).map((1, 1.0, 1.0))[1] >= 3.319000812207484e-05
    # opendp: ..., k=2).map((3, 0.3, 0.2))
    assert laplace(1.0, 10.0, 2).map((3, 0.3, 0.2))[1] >= 1.8100994563452488e-05
    # the page's first example: opendp gives (1.0, 2.801398224505647e-09); exact e^-19/2
    epsilon, delta = laplace(1.0, 20.0).map((1, 1.0, 1.0))
    assert epsilon == 1.0
    assert delta == smallest_f64_at_least(exact_laplace_delta(Fraction(2**1074), 19 * 2**1074, 1))
    assert abs(delta - 2.801398224505647e-09) < 1e-17


def test_page_spread_sensitivity():
    """The page's (100, 10.0, 0.001): OpenDP gives (0.1, 1.0316078580263621e-07)."""
    epsilon, delta = laplace(1.0, 20.0).map((100, 10.0, 0.001))
    assert epsilon == 0.1
    assert delta == pytest.approx(1.0316078580263621e-07, rel=1e-8)


@pytest.mark.parametrize(
    "k, d_in, rho",
    [
        # OpenDP 0.16: make_gaussian_threshold(..., scale=1.0, threshold=10.0, k).map(d_in)[0]
        (None, (1, 1.0, 1.0), 0.5),
        (-10, (1, 1.0, 1.0), 0.5),
        (0, (1, 1.0, 1.0), 0.5),
        (2, (1, 1.0, 1.0), 8.0),
        (None, (3, 0.3, 0.2), 0.045),
    ],
)
def test_gaussian_rho_equals_opendp(k, d_in, rho):
    assert gaussian(1.0, 10.0, k).map(d_in)[0] == rho


@pytest.mark.parametrize(
    "k, d_in, opendp_rho",
    [
        # OpenDP squares the rational grid l2 (not floored): these are its values
        (None, (2, 1.5, 1.0), 1.0000000000000002),
        (-10, (3, 0.3, 0.2), 0.045508867271504556),
        (0, (3, 0.3, 0.2), 1.5000000000000002),
        (2, (2, 1.5, 1.0), 16.000000000000004),
    ],
)
def test_gaussian_rho_at_most_opendp(k, d_in, opendp_rho):
    """The squared l2 distance of integer indices is an integer: certdp floors it, so rho is
    at most OpenDP's, and it is the floor of the grid l2 squared over 2 sigma'^2 rounded up."""
    kk = -1074 if k is None else k
    _, grid_l2, grid_linf = grid_distance(
        (d_in[0], Fraction(d_in[1]), Fraction(d_in[2])), 10.0, kk,
        Fraction(2) ** kk - Fraction(2) ** -1074, 2,
    )  # fmt: skip
    squared = min(math.floor(grid_l2 * grid_l2), math.floor(grid_linf) ** 2 * d_in[0])
    scale = Fraction(1) / Fraction(2) ** kk
    rho = gaussian(1.0, 10.0, k).map(d_in)[0]
    assert rho == round_rational(Fraction(squared) / (2 * scale * scale), "f64", "up")
    assert rho <= opendp_rho


def test_gaussian_delta_bounds_the_tail():
    """The page's example: threshold 20, d_in (1, 1, 1): delta >= P[N_Z(0, 2^2148) >=
    19 2^1074] ~ P[N(0,1) >= 19] = 8.53e-81 (OpenDP reports 1.11e-16, a floor of its bound)."""
    rho, delta = gaussian(1.0, 20.0).map((1, 1.0, 1.0))
    assert rho == 0.5
    with mpmath.workdps(50):
        tail = mpmath.ncdf(-19)
    # the bound of gaussian_tail.tex is an upper bound, about 1.4e-4 above the tail here
    assert tail <= delta <= tail * (1 + 1e-3)


def test_f32_values():
    # opendp 0.16: f32 domain, scale 2.0, threshold 5.0: map((2, 1.5, 1.0)) == (0.75, 0.13075637351442937)
    epsilon, delta = laplace(2.0, 5.0, T="f32").map((2, 1.5, 1.0))
    assert epsilon == 0.75
    expected = exact_laplace_delta(Fraction(2 * 2**149), 4 * 2**149, 2)
    assert delta == smallest_f64_at_least(expected)
    assert abs(delta - 0.13075637351442937) < 1e-15


def test_zero_sensitivity_key_still_costs_delta():
    """A key held on one side with value 0 can pass the threshold: OpenDP returns (0, 0) for
    (1, 0, 0) (scale 0.5, threshold 8, k = -3); the map here returns the tail at 8 / 2^-3."""
    epsilon, delta = laplace(0.5, 8.0, -3).map((1, 0.0, 0.0))
    assert epsilon == 0.0
    exact = exact_laplace_delta(Fraction(4), 64, 1)
    assert delta == smallest_f64_at_least(exact)


def test_release():
    measurement = laplace(1.0, 20.0)
    released = measurement({"a": 0.0, "b": 20.0, "c": 40.0, "d": math.inf})
    assert set(released) <= {"a", "b", "c", "d"}
    assert all(type(v) is float for v in released.values())
    zero_noise = laplace(0.0, 20.0, k=0)
    assert zero_noise({"a": 19.4, "b": 19.5, "c": 40.25, "d": -math.inf}) == {
        "b": 20.0,
        "c": 40.0,
    }
    assert gaussian(0.0, 3.0, k=-1)({"a": 2.75, "b": 2.74}) == {"a": 3.0}


def test_release_frequency():
    """Keys below the threshold are kept as often as the tail says (exact binomial test,
    significance 1e-6)."""
    measurement = laplace(1.0, 2.0, k=-2)
    # Size: with 400 draws and the range 10 <= kept <= 60 this failed by chance with probability
    # 3.0e-6 (exact binomial tails 2.8e-6 below, 1.9e-7 above); 4000 draws against the exact
    # probability accept a narrower band (226 to 389 kept: 0.0565 to 0.0973) and fail by chance
    # with probability 9.7e-7.
    draws = 4000
    kept = sum("a" in measurement({"a": 0.0}) for _ in range(draws))
    # P[Z >= 8] for Z ~ DLap(0, 4) = e^-2 / (1 + e^-1/4) ~ 0.0761
    tail = math.exp(-2) / (1 + math.exp(-1 / 4))
    assert stats.binomtest(kept, draws, tail).pvalue > SIGNIFICANCE, (kept, draws, tail)


@pytest.mark.parametrize(
    "kwargs, parameter, message",
    [
        ({"input_domain": space(nan=True)[0]}, "input_domain", "must not admit NaN"),
        ({"threshold": -1.0}, "threshold", "non-negative"),
        ({"threshold": math.inf}, "threshold", "finite"),
        ({"threshold": math.nan}, "threshold", "finite"),
        ({"threshold": True}, "threshold", "finite"),
        ({"threshold": 1e300, "T": "f32"}, "threshold", "f32"),
        ({"k": -2000}, "k", "-1074"),
        ({"k": 2000}, "k", "1023"),
        ({"k": 1.5}, "k", "integer"),
        ({"scale": -1.0}, "scale", "negative"),
        ({"input_metric": dp.l02inf_distance(dp.absolute_distance(T="f64"))}, "input_metric", ""),
    ],
)
@pytest.mark.parametrize("family", ["laplace", "gaussian"])
def test_bad_input(kwargs, parameter, message, family):
    kwargs = dict(kwargs)
    T = kwargs.pop("T", "f64")
    p = 1 if family == "laplace" else 2
    domain, metric = space(p, T)
    if "input_metric" in kwargs and family == "gaussian":
        kwargs["input_metric"] = dp.l01inf_distance(dp.absolute_distance(T="f64"))
    arguments = {"input_domain": domain, "input_metric": metric, "scale": 1.0,
                 "threshold": 5.0, **kwargs}  # fmt: skip
    make = dp.m.make_laplace_threshold if family == "laplace" else dp.m.make_gaussian_threshold
    with pytest.raises(MakeMeasurementError) as error:
        make(**arguments)
    assert error.value.parameter == parameter
    assert message in str(error.value)


def test_map_refusals():
    measurement = laplace(1.0, 20.0)
    with pytest.raises(FailedMapError, match="must not be smaller than the l-infinity"):
        measurement.map((1, 21.0, 21.0))
    with pytest.raises(FailedMapError, match="linf must be finite"):
        measurement.map((1, 1.0, math.inf))
    with pytest.raises(FailedMapError, match="l0 must be below 2\\^64"):
        measurement.map((1 << 64, 1.0, 1.0))


def test_noise_threshold_dispatches_float_values():
    domain, metric = space(1)
    m = dp.m.make_noise_threshold(
        domain, metric, dp.approximate(dp.max_divergence()), scale=1.0, threshold=20.0
    )
    assert m.map((1, 1.0, 1.0)) == laplace(1.0, 20.0).map((1, 1.0, 1.0))


@pytest.mark.parametrize("k", [None, -10, 0, 2])
@pytest.mark.parametrize("family", ["laplace", "gaussian"])
def test_contracts_on(k, family):
    """With contracts on, the float branch passes its preconditions and its maps pass the
    postcondition (the integer closed form on the grid view); a refused float argument is
    refused by the contract's precondition naming the same parameter."""
    from certdp.contracts import disable_contracts, enable_contracts

    build = laplace if family == "laplace" else gaussian
    enable_contracts()
    try:
        measurement = build(1.0, 10.0, k)
        for d_in in [(1, 1.0, 1.0), (2, 1.5, 1.0), (3, 0.3, 0.2), (1, 0.0, 0.0), (0, 0.0, 0.0)]:
            measurement.map(d_in)
        with pytest.raises(FailedMapError):
            measurement.map((1, 11.0, 11.0))
        measurement({"a": 3.0, "b": 30.0})
        with pytest.raises(ContractError) as error:
            build(1.0, -1.0, k)
        assert error.value.parameter == "threshold"
    finally:
        disable_contracts()


def test_contract_refutes_float_maps_below_the_bound():
    """The runtime contract of the float branch rejects an epsilon without the rounding slack
    and OpenDP's delta at k = -10 (the tail strictly beyond, #2922)."""
    from types import SimpleNamespace

    from certdp.measurements.laplace_threshold.contract import CONTRACT

    domain, _ = space(1)
    built = laplace(1.0, 10.0, -10)
    a = SimpleNamespace(input_domain=domain, scale=1.0, threshold=10.0, k=-10)
    d_in = (2, Fraction(3, 2), Fraction(1))
    CONTRACT.check_map_value(a, built, d_in, built.map((2, 1.5, 1.0)))
    with pytest.raises(ContractError):
        CONTRACT.check_map_value(a, built, d_in, (1.5, 1.0))
    with pytest.raises(ContractError):
        # opendp 0.16: k=-10 map((2, 1.5, 1.0)) == (1.5009765625, 0.00012334574162076173)
        CONTRACT.check_map_value(a, built, d_in, (1.5009765625, 0.00012334574162076173))
