"""The SMT model of make_noise_threshold: proved on the real code; OpenDP's off-by-one tail in
the release it returns is refuted."""

from __future__ import annotations

import pytest

import certdp.prelude as dp

from .edited import prove_edited

FILE = "measurements/laplace_threshold/make_laplace_threshold.py"


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # make_noise_threshold is not vetted in this branch yet


# `certdp prove make_noise_threshold` on an unedited copy: the full re-proof is `certdp prove`'s; `make test` checks that its committed
# result is current and proved (test_prove.py) and that a stale one fails `certdp audit
# --strict` (test_stale_result_fails_the_audit.py)
@pytest.mark.slow
def test_the_unedited_code_is_proved(tmp_path):
    summary = prove_edited(tmp_path, "make_noise_threshold", {})
    assert summary["status"] == "proved", summary


def test_opendps_tail_is_refuted_through_the_wrapper(tmp_path):
    edit = ("reach = abs(threshold)  # label: reach", "reach = abs(threshold) + 1  # label: reach")
    summary = prove_edited(tmp_path, "make_noise_threshold", {FILE: [edit]}, select="scale=1.0")
    assert summary["status"] == "counterexample", summary


def test_opendps_gaussian_tail_is_refuted_through_the_wrapper(tmp_path):
    gaussian = "measurements/gaussian_threshold/make_gaussian_threshold.py"
    edit = ("reach = abs(threshold)  # label: reach", "reach = abs(threshold) + 1  # label: reach")
    summary = prove_edited(
        tmp_path, "make_noise_threshold", {gaussian: [edit]}, select="ZeroConcentrated"
    )
    assert summary["status"] == "counterexample", summary
