"""The SMT model of make_geometric: its clamp is the code's on random values (the clamp
obligation reads only the bounds from the code, so an edit of the clamp's formula is caught
here, not by the solver), its obligations are proved on the real code, and a map stating half
the loss is refuted."""

from __future__ import annotations

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.measurements.geometric.smt_model import built, clamp_model, code_bounds

from .edited import prove_edited

FILE = "measurements/geometric/make_geometric.py"


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # make_geometric is not vetted in this branch yet


i32 = st.integers(-(2**31), 2**31 - 1)


@given(u=i32, lower=i32, upper=i32)
def test_the_clamp_model_is_the_code(u, lower, upper):
    lower, upper = min(lower, upper), max(lower, upper)
    measurement = built(False, 0.0, (lower, upper))  # scale 0: the release is the clamp
    assert code_bounds(measurement) == (lower, upper)
    value = z3.simplify(clamp_model(z3.BitVecVal(u, 64), lower, upper)).as_signed_long()
    assert value == measurement(u)


def test_a_halved_map_is_refuted(tmp_path):
    edit = (
        "privacy_map=inner.map,  # label: privacy-map",
        "privacy_map=lambda d: inner.map(d) / 2,  # label: privacy-map",
    )
    summary = prove_edited(tmp_path, "make_geometric", {FILE: [edit]}, select="bounds=(0, 10),")
    assert summary["status"] == "counterexample", summary


# `certdp prove make_geometric` on an unedited copy: the full re-proof is `certdp prove`'s; `make test` checks that its committed
# result is current and proved (test_prove.py) and that a stale one fails `certdp audit
# --strict` (test_stale_result_fails_the_audit.py)
@pytest.mark.slow
def test_the_unedited_code_is_proved(tmp_path):
    summary = prove_edited(tmp_path, "make_geometric", {})
    assert summary["status"] == "proved", summary
