"""make_geometric: OpenDP's name for the integer Laplace mechanism, optionally within bounds."""

from __future__ import annotations

import dataclasses
import math

import pytest
from scipy import stats

import certdp.prelude as dp
from certdp.contracts.contract import PrivacyViolation
from certdp.core.errors import ContractError, MakeMeasurementError
from certdp.measurements.geometric.contract import CONTRACT

from .stats import SIGNIFICANCE

make = dp.m.make_geometric


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # make_geometric is not vetted in this branch yet


def atom(T="i32", bounds=None):
    domain = dp.atom_domain(T=T) if bounds is None else dp.atom_domain(bounds=bounds, T=T)
    return domain, dp.absolute_distance(T=T)


def vector(T="i32"):
    return dp.vector_domain(dp.atom_domain(T=T)), dp.l1_distance(T=T)


# OpenDP 0.16.0: dp.m.make_geometric(<space>, scale, bounds).map(d_in)
OPENDP = [
    (atom(), 1.0, None, 1, 1.0),
    (atom(), 1.0, (0, 10), 1, 1.0),
    (vector(), 2.0, None, 3, 1.5),
    (vector(), 1.0, (0, 10), 2, 2.0),
    (atom(bounds=(0, 10)), 2.0, None, 3, 1.5),
    (atom(), 0.0, None, 1, math.inf),
]


@pytest.mark.parametrize("space, scale, bounds, d_in, expected", OPENDP)
def test_map_matches_opendp(space, scale, bounds, d_in, expected):
    assert make(*space, scale, bounds=bounds).map(d_in) == expected


@pytest.mark.parametrize("scale", [0.5, 1.0, 3.0, 1e-3])
@pytest.mark.parametrize("d_in", [0, 1, 2, 7, 10**6])
def test_map_is_make_laplaces(scale, d_in):
    for space in (atom(), vector(), atom("i64"), vector("u32")):
        laplace = dp.m.make_laplace(*space, scale)
        assert make(*space, scale).map(d_in) == laplace.map(d_in)
        assert make(*space, scale, bounds=(0, 9)).map(d_in) == laplace.map(d_in)


def test_bounds_clamp_input_and_output():
    assert make(*atom(), 0.0, bounds=(0, 10))(50) == 10
    assert make(*atom(), 0.0, bounds=(0, 10))(-5) == 0
    assert make(*atom(), 0.0, bounds=(3, 3))(7) == 3
    assert make(*vector(), 0.0, bounds=(0, 10))([50, -5, 5]) == [10, 0, 5]
    release = make(*vector(), 2.0, bounds=(-4, 4))
    assert all(-4 <= v <= 4 for v in release([100] * 200 + [-100] * 200 + [0] * 200))


def test_at_scale_zero_bounds_still_clamp_where_opendp_ignores_them():
    """make_geometric.tex, Relation to OpenDP: at scale 0 certdp clamps twice (the release stays
    in [L, U]); OpenDP 0.16 releases the input itself. Both maps are inf for d_in > 0."""
    m = make(*atom(), 0.0, bounds=(0, 10))
    assert (m(-5), m(100), m(7)) == (0, 10, 7)
    assert (m.map(0), m.map(1)) == (0.0, math.inf)
    space = (dp.vector_domain(dp.atom_domain(T="i32")), dp.l1_distance(T="i32"))
    assert make(*space, 0.0, bounds=(0, 10))([-5, 100, 5]) == [0, 10, 5]
    odp = pytest.importorskip("opendp.prelude")
    odp.enable_features("contrib")
    theirs = odp.m.make_geometric(
        odp.atom_domain(T="i32"), odp.absolute_distance(T="i32"), 0.0, bounds=(0, 10)
    )
    assert (theirs(-5), theirs(100)) == (-5, 100)
    assert theirs.map(1) == m.map(1)


def test_bounded_release_is_the_clamped_laplace():
    """x = 50, bounds (0, 10), scale 1: the value released is clamp(10 + Z) (as OpenDP), so
    10 has probability P[Z >= 0] = 1 / (1 + e^-1) and 9 has P[Z = -1]; chi-square at 1e-6."""
    n = 20000
    draws = make(*vector(), 1.0, bounds=(0, 10))([50] * n)
    u = math.exp(-1)
    c = (1 - u) / (1 + u)
    expected = {10: 1 / (1 + u), 9: c * u, 8: c * u**2, 7: c * u**3}
    observed = [sum(1 for v in draws if v == z) for z in expected]
    rest_observed = n - sum(observed)
    rest_expected = 1 - sum(expected.values())
    pvalue = stats.chisquare(
        observed + [rest_observed], [p * n for p in expected.values()] + [rest_expected * n]
    ).pvalue
    assert pvalue > SIGNIFICANCE


@pytest.mark.parametrize(
    "kwargs, parameter, message",
    [
        ({"MO": "ZeroConcentratedDivergence"}, "MO", "MaxDivergence"),
        ({"space": (dp.atom_domain(T="f64", nan=False), dp.absolute_distance(T="f64"))},
         "input_domain", "integer support"),
        ({"bounds": (10, 0)}, "bounds", "lower may not be greater than upper"),
        ({"bounds": (0.0, 10.0)}, "bounds", "integers of i32"),
        ({"bounds": (0, 2**31)}, "bounds", "integers of i32"),
        ({"bounds": (1, 2, 3)}, "bounds", "pair"),
        ({"scale": -1.0}, "scale", "negative"),
    ],
)  # fmt: skip
def test_bad_input(kwargs, parameter, message):
    space = kwargs.pop("space", atom())
    arguments = {"scale": 1.0, **kwargs}
    with pytest.raises(MakeMeasurementError) as error:
        make(*space, **arguments)
    assert error.value.parameter == parameter
    assert message in str(error.value)


def test_then_form():
    measurement = atom() >> dp.m.then_geometric(scale=2.0, bounds=(0, 5))
    assert measurement.map(4) == 2.0
    assert 0 <= measurement(3) <= 5


def test_contract_verify():
    CONTRACT.verify()


def test_a_halved_map_is_refuted():
    with pytest.raises(PrivacyViolation):
        dataclasses.replace(CONTRACT).verify(map_override=lambda d_in: float(d_in) / 2)


def test_runtime_contracts():
    dp.enable_contracts()
    try:
        assert make(*atom(), 4.0, bounds=(0, 9)).map(2) == 0.5
        with pytest.raises(ContractError):
            make(*atom(), 1.0, bounds=(9, 0))
    finally:
        dp.disable_contracts()
