"""The SMT model of the accuracy conversions is bound to the real functions: every grid
obligation is proved, random instances over the whole input range are proved, and edits that
round a result the other way or return a search's failing end are refuted."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.measurements._accuracy import smt_model
from certdp.prove.solver import solve

from .edited import prove_edited

ACCURACY = "measurements/_accuracy/accuracy.py"


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")
    yield


def test_every_grid_obligation_is_proved():
    found = smt_model.obligations()
    assert len(found) == len(smt_model.GRID) == 131
    for obligation in found:
        assert solve(obligation, 60)["status"] == "proved", obligation.claim


def test_the_top_of_the_range_is_in_the_grid():
    """Regression (referee): the discrete Gaussian accuracy at the top of the range returned
    a TypeError; the grid holds the instance and its neighbour."""
    code = smt_model._code()
    results = [getattr(code, name)(value, alpha) for name, value, alpha in smt_model.TOP]
    assert results[0] == 1.7976931348623157e308 and results[1] == float("inf")
    assert results[2] < float("inf")


@given(
    name=st.sampled_from(smt_model.NAMES),
    value=st.floats(0.0, 1e300) | st.floats(1e-3, 1e3),
    alpha=st.floats(5e-324, 1.0, exclude_max=True, exclude_min=False) | st.floats(1e-6, 0.999),
)
def test_random_instances_over_the_whole_range_are_proved(name, value, alpha):
    if alpha == 0:
        return
    if "discrete_gaussian" in name and name.startswith("accuracy_to"):
        value = min(value, 1e6)  # keeps the reference search short; the code accepts any
    obligation = smt_model.instance_obligation(name, value, alpha)
    assert solve(obligation, 60)["status"] == "proved", obligation.claim


@pytest.mark.parametrize(
    "edit, select",
    [
        (('"up")  # label: round-up', '"down")  # label: round-up'), "laplacian_scale_to_accuracy(1.0, 0.05)"),
        (('"down")  # label: round-down', '"up")  # label: round-down'), "accuracy_to_laplacian_scale(1.0, 0.05)"),
        (("return high  # label: first-passing", "return low  # label: first-passing"), "gaussian_scale_to_accuracy(1.0, 0.05)"),
        (("key - 1, fmt)  # label: largest", "key, fmt)  # label: largest"), "accuracy_to_gaussian_scale(1.0, 0.05)"),
    ],
    ids=["accuracy rounded down", "scale rounded up", "search returns failing accuracy",
         "search returns failing scale"],
)  # fmt: skip
def test_unsound_edits_are_refuted(tmp_path, edit, select):
    summary = prove_edited(tmp_path, "accuracy", {ACCURACY: [edit]}, select=select)
    assert summary["status"] == "counterexample", summary
