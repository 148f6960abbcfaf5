"""The crosscheck compares Rényi curves order by order: the make_composition point over
user measurements under RenyiDivergence (full grid) is built in OpenDP 0.16 and in certdp,
and the composed curves agree at every order and d_in of the point."""

from __future__ import annotations

import pytest

from certdp.crosscheck.mapcheck import compare_maps
from certdp.crosscheck.run import _build_oracle
from certdp.crosscheck.target import load_target
from certdp.crosscheck.twins import twin_points


def _renyi_point():
    points = [p for p in twin_points("make_composition", quick=False) if p.alphas]
    assert len(points) == 1
    return points[0]


def test_the_point_is_on_the_full_grid_only():
    assert _renyi_point().alphas == (1.5, 2.0, 10.0, 1e3)
    assert not [p for p in twin_points("make_composition", quick=True) if p.alphas]


def test_certdp_against_itself_is_equal_at_every_order():
    point = _renyi_point()
    target = load_target("certdp")
    built, _ = target.build(point.code)
    oracle, refusal = _build_oracle(point.code)
    assert oracle is not None, refusal
    outcomes = compare_maps(point, built, oracle)
    assert outcomes and {o.klass for o in outcomes} == {"equal"}
    assert {o.note for o in outcomes} == {"curve(alpha)"}


def test_opendp_curves_equal_certdps():
    pytest.importorskip("opendp")
    point = _renyi_point()
    target = load_target("opendp")
    built, _ = target.build(point.code)
    oracle, refusal = _build_oracle(point.code)
    assert oracle is not None, refusal
    with target.features("contrib", "honest-but-curious"):  # as run.py does for curves
        outcomes = compare_maps(point, built, oracle)
    # every d_in of the point at which both answer, at each of the four orders
    assert len(outcomes) >= 4 and {o.klass for o in outcomes} <= {"equal", "conservative"}
    assert "equal" in {o.klass for o in outcomes}
