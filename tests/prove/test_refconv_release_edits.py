"""refconv: edits of the threshold release beyond the eight of test_threshold_release_models;
each changes what the release does (so the proof no longer describes the code) and each should
be refuted by the release obligations."""

from __future__ import annotations

import pytest

import certdp.prelude as dp

from .edited import prove_edited
from .test_threshold_release_models import FLOAT_RELEASE, FLOAT_TEST, RELEASE, TEST

SATURATE = "released[key] = min(max(noisy, lower), upper)  # label: saturate"
INDEX = "index = nearest_grid_index(min(max(x[key], lower), upper), k)  # label: index"

EDITS = {
    "released at threshold - 1": (
        RELEASE,
        TEST,
        TEST.replace("(noisy >= threshold)", "(noisy >= threshold - 1)"),
    ),
    "a value of 7 always released": (
        RELEASE,
        TEST,
        TEST.replace("if (noisy", "if x[key] == 7 or (noisy"),
    ),
    "saturation only for i32": (
        RELEASE,
        SATURATE,
        SATURATE.replace("  # label", " if T.name == 'i32' else noisy  # label"),
    ),
    "a float value of 2.0 always released": (
        FLOAT_RELEASE,
        FLOAT_TEST,
        FLOAT_TEST.replace("if noisy", "if x[key] == 2.0 or noisy"),
    ),
    "no input clamp for f32": (
        FLOAT_RELEASE,
        INDEX,
        INDEX.replace(
            "min(max(x[key], lower), upper)",
            "(x[key] if T.name == 'f32' else min(max(x[key], lower), upper))",
        ),
    ),
}


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


@pytest.mark.parametrize("edit", EDITS)
def test_edit_is_refuted(tmp_path, edit):
    relative, old, new = EDITS[edit]
    name = "make_laplace_threshold"
    summary = prove_edited(
        tmp_path, name, {relative: [(old, new)]}, select=f"release of the real {name}"
    )
    assert summary["status"] == "counterexample", summary
