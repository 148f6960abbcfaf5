"""``certdp crosscheck T accuracy``: the eight conversions compared with the target's."""

from __future__ import annotations

import pytest

from certdp.crosscheck import crosscheck
from certdp.crosscheck.accuracy import accuracy_points, check_accuracy
from certdp.crosscheck.target import load_target


def test_certdp_against_itself_is_all_equal():
    result = check_accuracy(load_target("certdp.prelude"), quick=True)
    assert result.points == result.built == len(accuracy_points(True))
    assert result.map_classes["equal"] == result.points and not result.findings


def test_opendp_is_compared_and_its_unsafe_values_are_found():
    pytest.importorskip("opendp.prelude")
    report = crosscheck("opendp.prelude", ["accuracy"], quick=False)
    (result,) = report.results
    assert result.twin == "accuracy" and result.built == result.points - len(result.notes)
    assert result.map_classes["equal"] > 0
    points = {finding.point for finding in result.findings}
    # OpenDP's erf_inv near 1: its Gaussian accuracy at alpha = 1e-10 does not hold
    assert "dp.gaussian_scale_to_accuracy(100.0, 1e-10)" in points
    # OpenDP's discrete Gaussian accuracy at alpha = 5e-324 (1 - alpha rounds to 1)
    assert "dp.discrete_gaussian_scale_to_accuracy(3.7, 5e-324)" in points
    assert all(finding.severity == "suspect" for finding in result.findings)
    assert report.exit_status() == 0  # suspects fail a run only with fail_on_suspect


def test_the_quick_grid_is_a_subset():
    assert set(accuracy_points(True)) <= set(accuracy_points(False))
