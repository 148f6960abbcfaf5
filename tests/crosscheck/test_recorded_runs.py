"""The recorded runs the docs page shows when OpenDP is not installed: present, complete (every
twin), and holding the must-find findings of OpenDP 0.16.0."""

import json
from pathlib import Path

import pytest

from certdp.crosscheck.report import digest
from certdp.crosscheck.twins import TWINS

DATA = Path(__file__).resolve().parents[2] / "docs" / "guide" / "data"


@pytest.mark.parametrize(
    "name", ["crosscheck-opendp-0.16.0-quick.json", "crosscheck-opendp-0.16.0.json"]
)
def test_recorded_run(name):
    data = json.loads((DATA / name).read_text())
    assert data["target"] == "opendp.prelude"
    assert data["quick"] == name.endswith("-quick.json")
    assert sorted(twin["twin"] for twin in data["twins"]) == sorted(TWINS)
    assert all(twin["error"] == "" for twin in data["twins"])
    assert data["exit_status"] == 1
    failing = {(f["twin"], f["check"]) for f in data["findings"] if f["severity"] == "violation"}
    assert ("make_sized_bounded_float_ordered_sum", "search") in failing
    assert ("make_resize", "coupling") in failing
    # OpenDP #2922: a key of one side only survives the threshold more often than its delta
    assert ("make_laplace_threshold", "lone-keys") in failing
    assert ("make_noise_threshold", "lone-keys") in failing
    assert ("make_gaussian_threshold", "lone-keys") in failing
    # make_b_ary_tree: a branch sum wrapped at the type's limit; the L2 map d_in * layers
    assert ("make_b_ary_tree", "tree-wrap") in failing
    assert ("make_b_ary_tree", "tree-spread") in failing
    tree = [f for f in data["findings"] if f["twin"] == "make_b_ary_tree"]
    assert all(f["x"] and f["x_prime"] and f["reproducer"] for f in tree)
    assert not [f for f in tree if f["severity"] == "suspect"]  # sqrt(S) * d_in is no floor
    idealized = {f["twin"] for f in data["findings"] if f["severity"] == "idealized"}
    # the float sums' rounding, which OpenDP builds only under idealized-numerics (np_sum, and
    # private_np_mean through its np_sum); np_sscp: its rounded X^T X leaves its own domain
    # (an overflowed entry is not finite; a rounded rank-one matrix has a negative eigenvalue)
    assert idealized == {"make_np_sum", "make_private_np_mean", "make_np_sscp"}
    sscp = [f for f in data["findings"] if f["twin"] == "make_np_sscp"]
    assert sscp and all(
        f["check"] == "domain" and "own output domain" in f["summary"] for f in sscp
    )
    lines = digest(data)
    assert lines[0].startswith("target opendp.prelude")
    assert any("Pairwise<f64>" in line for line in lines)
