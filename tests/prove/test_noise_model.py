"""The SMT model of make_noise: proved on the real code; a dispatch that answers a pure-DP
request with the Gaussian mechanism (a zCDP number stated as epsilon) is refuted."""

from __future__ import annotations

import pytest

import certdp.prelude as dp
from certdp.measurements.noise.smt_model import map_instance
from certdp.prove.engine import solve

from .edited import prove_edited

FILE = "measurements/noise/make_noise.py"


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # make_noise is not vetted in this branch yet


def test_the_obligations_are_proved_on_the_real_code():
    for measure in ("MaxDivergence", "ZeroConcentratedDivergence"):
        assert solve(map_instance("i32 atom", measure), 60)["status"] == "proved"


def test_the_gaussian_for_a_pure_request_is_refuted(tmp_path):
    edit = (
        "return make_laplace(input_domain, input_metric, scale, k)  # label: laplace",
        "return make_gaussian(input_domain, input_metric, scale, k)  # label: laplace",
    )
    summary = prove_edited(tmp_path, "make_noise", {FILE: [edit]}, select="i32 atom MaxDivergence")
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved(tmp_path):
    summary = prove_edited(tmp_path, "make_noise", {}, select="i32 atom")
    assert summary["status"] == "proved", summary
