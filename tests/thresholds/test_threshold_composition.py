"""Composing thresholded releases: make_composition hands each release the triple (l0, lp, linf)
(validate_d_in reads triples under an L0-Lp-Linf metric) and adds their losses."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError, FailedMapError

DOMAIN = dp.map_domain(dp.atom_domain(T="String"), dp.atom_domain(T="i32"))
L01 = dp.l01inf_distance(dp.absolute_distance(T="i32"))
L02 = dp.l02inf_distance(dp.absolute_distance(T="i32"))


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # the thresholded releases are not vetted in this branch yet


def _sum_at_least(total, parts) -> bool:
    return all(Fraction(total[i]) >= sum(Fraction(part[i]) for part in parts) for i in range(2))


@pytest.mark.parametrize("d_in", [(1, 1, 1), (2, 3, 2), (0, 0, 0), (3, 2, 1)])
def test_two_laplace_thresholds_compose(d_in):
    releases = [
        dp.m.make_laplace_threshold(DOMAIN, L01, 1.0, 5),
        dp.m.make_laplace_threshold(DOMAIN, L01, 2.0, 8),
    ]
    composed = dp.c.make_composition(releases)
    assert composed.output_measure == dp.approximate(dp.max_divergence())
    parts = [release.map(d_in) for release in releases]
    total = composed.map(d_in)
    assert _sum_at_least(total, parts)
    assert total[0] == pytest.approx(parts[0][0] + parts[1][0], rel=1e-12)
    assert total[1] == pytest.approx(parts[0][1] + parts[1][1], rel=1e-12)


@pytest.mark.parametrize("d_in", [(1, 1, 1), (2, 3, 2), (0, 0, 0), (3, 2, 1)])
def test_two_gaussian_thresholds_compose(d_in):
    releases = [
        dp.m.make_gaussian_threshold(DOMAIN, L02, 1.0, 5),
        dp.m.make_noise_threshold(
            DOMAIN, L02, dp.approximate(dp.zero_concentrated_divergence()), 2.0, 8
        ),
    ]
    composed = dp.c.make_composition(releases)
    assert composed.output_measure == dp.approximate(dp.zero_concentrated_divergence())
    parts = [release.map(d_in) for release in releases]
    total = composed.map(d_in)
    assert _sum_at_least(total, parts)
    assert total[0] == pytest.approx(parts[0][0] + parts[1][0], rel=1e-12)
    assert total[1] == pytest.approx(parts[0][1] + parts[1][1], rel=1e-12)
    out = composed({"a": 1000, "b": -1000})
    assert len(out) == 2 and all(list(release) == ["a"] for release in out)


def test_count_by_then_two_thresholded_releases():
    """A histogram of unknown keys released twice: count_by's triple (d, d, d) reaches both
    releases through the composition."""
    counts = dp.t.make_count_by(
        dp.vector_domain(dp.atom_domain(T="String")), dp.symmetric_distance()
    )
    first = counts >> dp.m.then_laplace_threshold(scale=1.0, threshold=5)
    second = counts >> dp.m.then_laplace_threshold(scale=2.0, threshold=8)
    composed = dp.c.make_composition([first, second])
    triple = counts.map(1)
    assert tuple(triple) == (1, 1, 1)
    total = composed.map(1)
    assert _sum_at_least(total, [first.map(1), second.map(1)])
    assert total[1] >= 0.013389804932698 + 0.018796643089102  # the exact survivals, summed
    # far thresholds: the count 1000 passes both and the count 2 neither (but with
    # probability below e^-90)
    far = dp.c.make_composition(
        [counts >> dp.m.then_laplace_threshold(scale=1.0, threshold=100),
         counts >> dp.m.then_laplace_threshold(scale=2.0, threshold=200)]
    )  # fmt: skip
    releases = far(["a"] * 1000 + ["b"] * 2)
    assert [list(release) for release in releases] == [["a"], ["a"]]


def test_a_triple_the_map_refuses_is_a_typed_error():
    composed = dp.c.make_composition(
        [dp.m.make_gaussian_threshold(DOMAIN, L02, 1.0, 5) for _ in range(2)]
    )
    with pytest.raises(FailedMapError):
        composed.map((1, math.inf, 1))
    with pytest.raises(FailedMapError):
        composed.map((1, 6, 6))  # l_inf beyond the threshold
    with pytest.raises(FailedMapError):
        composed.map(1)


def test_composition_under_runtime_contracts():
    """With contracts on, the composition's contract and each release's check the triple."""
    dp.enable_contracts()
    try:
        gaussian = dp.c.make_composition(
            [dp.m.make_gaussian_threshold(DOMAIN, L02, 1.0, 5) for _ in range(2)]
        )
        assert gaussian.map((1, 1, 1)) == (1.0, 0.00027064605915637406)
        laplace = dp.c.make_composition(
            [dp.m.make_laplace_threshold(DOMAIN, L01, 1.0, 5) for _ in range(2)]
        )
        assert laplace.map((1, 1, 1))[1] >= 2 * 0.013389804932698
    finally:
        dp.disable_contracts()


def test_releases_of_different_measures_do_not_compose():
    with pytest.raises(DPError):
        dp.c.make_composition(
            [
                dp.m.make_laplace_threshold(DOMAIN, L01, 1.0, 5),
                dp.m.make_gaussian_threshold(DOMAIN, L02, 1.0, 5),
            ]
        )
