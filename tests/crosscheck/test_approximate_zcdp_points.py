"""The crosscheck's Approximate(ZeroConcentratedDivergence) points: make_zCDP_to_approxDP and
make_fix_delta over the Gaussian threshold, in the quick and the full grid.  The map check
compares a (profile, delta) pair by the profile's epsilon at each delta of the point and by the
delta as a number: certdp against itself is equal everywhere; OpenDP 0.16's profile is certdp's
where the inner rho agrees, and its threshold delta larger at (1, 1, 1)."""

from __future__ import annotations

import pytest

from certdp.crosscheck.mapcheck import compare_maps
from certdp.crosscheck.run import _build_oracle
from certdp.crosscheck.target import load_target
from certdp.crosscheck.twins import twin_points


def _points(name, quick):
    return [p for p in twin_points(name, quick=quick) if "make_gaussian_threshold" in p.code]


@pytest.mark.parametrize("quick", [True, False])
def test_both_grids_hold_an_approximate_zcdp_point(quick):
    assert len(_points("make_zCDP_to_approxDP", quick)) == 1
    assert len(_points("make_fix_delta", quick)) == (1 if quick else 4)


@pytest.mark.parametrize("name", ["make_zCDP_to_approxDP", "make_fix_delta"])
def test_certdp_against_itself_is_equal(name):
    target = load_target("certdp")
    for point in _points(name, quick=True):
        built, _ = target.build(point.code)
        oracle, refusal = _build_oracle(point.code)
        assert oracle is not None, refusal
        with target.features("contrib"):
            outcomes = compare_maps(point, built, oracle)
        assert outcomes and {o.klass for o in outcomes} == {"equal"}
        if name == "make_zCDP_to_approxDP":
            notes = {o.note for o in outcomes}
            assert notes == {"profile epsilon(delta)", "delta beside the profile"}


def test_opendp_against_certdp_at_one_key():
    pytest.importorskip("opendp")
    target = load_target("opendp")
    (point,) = _points("make_zCDP_to_approxDP", quick=True)
    built, _ = target.build(point.code)
    oracle, refusal = _build_oracle(point.code)
    assert oracle is not None, refusal
    with target.features("contrib"):
        outcomes = [o for o in compare_maps(point, built, oracle) if o.d_in == (1, 1, 1)]
    by_note = {}
    for outcome in outcomes:
        by_note.setdefault(outcome.note, set()).add(outcome.klass)
    # rho = 0.5 in both: the same profile; OpenDP's threshold delta 1.1e-16 > certdp's 1.0e-18
    assert by_note == {
        "profile epsilon(delta)": {"equal"},
        "delta beside the profile": {"conservative"},
    }
