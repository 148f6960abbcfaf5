"""The release obligations of the threshold models (_threshold/threshold_smt.py): the real
release function, run on a finite list of chosen (value, draw) cases, releases exactly what
threshold_release.tex and float_release.tex state on those cases.  They hold on the real code,
and each of the eight edits below (a strict test, a release below the threshold, the raw value
released, another key order, the float test or value changed) is refuted by ``certdp prove``
(test_refconv_release_edits.py holds five more)."""

from __future__ import annotations

import pytest

import certdp.prelude as dp
from certdp.measurements._threshold import threshold_smt as kernel
from certdp.prove.engine import solve

from .edited import prove_edited

NAMES = ("make_laplace_threshold", "make_gaussian_threshold")
RELEASE = "measurements/_threshold/threshold_release.py"
FLOAT_RELEASE = "measurements/_threshold/float_release.py"
TEST = "if (noisy >= threshold) if threshold >= 0 else (noisy <= threshold):  # label: test"
FLOAT_TEST = "if noisy >= grid_threshold:  # label: float-test"

#: (file, old, new, which release obligation refutes it)
EDITS = {
    "strict test": (RELEASE, TEST, TEST.replace("(noisy >= threshold)", "(noisy > threshold)"),
                    "threshold=5:"),
    "strict negative test": (RELEASE, TEST, TEST.replace("(noisy <= threshold)",
                                                         "(noisy < threshold)"),
                             "threshold=-3:"),
    "release below the threshold": (RELEASE, TEST, TEST.replace("if (", "if not ("),
                                    "threshold=5:"),
    "raw value released": (
        RELEASE,
        "released[key] = min(max(noisy, lower), upper)  # label: saturate",
        "released[key] = min(max(x[key], lower), upper)  # label: saturate",
        "threshold=1:",
    ),
    "no saturation": (
        RELEASE,
        "released[key] = min(max(noisy, lower), upper)  # label: saturate",
        "released[key] = noisy  # label: saturate",
        "threshold=0:",
    ),
    "keys visited in reverse": (
        RELEASE,
        "for key in sorted(x):  # label: key-order",
        "for key in sorted(x, reverse=True):  # label: key-order",
        "threshold=5:",
    ),
    "strict float test": (FLOAT_RELEASE, FLOAT_TEST, FLOAT_TEST.replace(">=", ">"),
                          "f32/k=-2/threshold=3.0"),
    "float index released": (
        FLOAT_RELEASE,
        "released[key] = grid_point_to_float(noisy, k, T.name)  # label: float-value",
        "released[key] = grid_point_to_float(index, k, T.name)  # label: float-value",
        "f64/k=1/threshold=14.0",
    ),
}  # fmt: skip


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _make(name):
    module = __import__(f"certdp.measurements.{name[len('make_') :]}", fromlist=[name])
    return getattr(module, name)


@pytest.mark.parametrize("name", NAMES)
def test_the_release_obligations_are_proved_on_the_real_code(name):
    p = 1 if name == "make_laplace_threshold" else 2
    for threshold in (-3, 0, 5):
        obligation = kernel.release_instance(name, lambda: _make(name), p, threshold)
        assert solve(obligation, 60)["status"] == "proved"
    for instance in kernel.FLOAT_INSTANCES:
        obligation = kernel.float_release_instance(name, lambda: _make(name), p, *instance)
        assert solve(obligation, 60)["status"] == "proved"


def test_the_rows_are_the_real_release():
    """The stub hands the draws to the keys in sorted order and the rows read what the real
    function released: a key at the threshold with draw 0 is released with its value, one
    below is not."""
    built = kernel.built_release(_make("make_laplace_threshold"), 1, "i32", 1.0, 5)
    rows = kernel.released_rows(built, [({"b": 4, "a": 5}, (0, 0)), ({"a": 0}, (7,))])
    assert rows == [(5, 0, True, 5), (4, 0, False, None), (0, 7, True, 7)]


@pytest.mark.parametrize("edit", EDITS)
def test_an_edited_release_is_refuted(tmp_path, edit):
    relative, old, new, select = EDITS[edit]
    name = "make_laplace_threshold"
    summary = prove_edited(tmp_path, name, {relative: [(old, new)]},
                           select=f"release of the real {name} {select}")  # fmt: skip
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize("name", NAMES)
def test_the_gaussian_release_edit_is_refuted_too(tmp_path, name):
    old, new = TEST, TEST.replace("(noisy >= threshold)", "(noisy > threshold)")
    summary = prove_edited(tmp_path, name, {RELEASE: [(old, new)]},
                           select=f"release of the real {name} threshold=5:")  # fmt: skip
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize("name", NAMES)
def test_the_unedited_release_is_proved(tmp_path, name):
    summary = prove_edited(tmp_path, name, {}, select=f"release of the real {name}")
    assert summary["status"] == "proved", summary
