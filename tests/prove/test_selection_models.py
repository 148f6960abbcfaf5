"""The SMT models of the selection measurements: proved on the real code; edited maps that
under-charge (the factor 2 of the non-monotonic metric dropped; the zCDP bound divided by 32
instead of 8) or round up further than once are refuted."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import certdp.prelude as dp
from certdp.measurements._selection.selection_smt import exact_bound, violations
from certdp.prove.engine import solve

from .edited import prove_edited

NAMES = ("make_noisy_top_k", "make_noisy_max", "make_report_noisy_max_gumbel")
SHARED = "measurements/_selection/selection.py"
NO_FACTOR = (
    "factor = 1 if monotonic else 2  # label: range-factor",
    "factor = 1  # label: range-factor",
)
QUARTER_ZCDP = (
    "return k * loss * loss / 8  # label: zcdp-bound",
    "return k * loss * loss / 32  # label: zcdp-bound",
)
OVER_PURE = (
    "return k * loss  # label: pure-bound",
    "return k * loss * Fraction(1000001, 1000000)  # label: pure-bound",
)


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # the selection constructors are not vetted in this branch


@pytest.mark.parametrize("name", NAMES)
def test_the_obligations_are_proved_on_the_real_code(name):
    import importlib

    from certdp.prove.engine import known_constructors

    module = importlib.import_module(known_constructors()[name])
    outcomes = [solve(o, 60) for o in module.obligations([name])]
    assert outcomes and all(o["status"] == "proved" for o in outcomes), outcomes


def test_the_least_float_check_has_teeth():
    bound = exact_bound(False, "ZeroConcentratedDivergence", 3, 0.3, 1)
    assert bound == Fraction(3) * (Fraction(2) / Fraction(0.3)) ** 2 / 8
    assert violations(math.inf, bound) is not None  # +inf for a finite bound
    assert (
        violations(math.inf, exact_bound(True, "ZeroConcentratedDivergence", 1, 1e-200, 1)) is None
    )
    assert violations(0.0, math.inf) is not None
    assert violations(float("nan"), Fraction(1)) is not None


@pytest.mark.parametrize(
    ("name", "edit", "select"),
    [
        ("make_noisy_top_k", NO_FACTOR, "i32 non-monotonic MaxDivergence"),
        ("make_noisy_top_k", QUARTER_ZCDP, "f64 monotonic ZeroConcentratedDivergence"),
        ("make_noisy_max", NO_FACTOR, "f64 non-monotonic ZeroConcentratedDivergence"),
        ("make_report_noisy_max_gumbel", NO_FACTOR, "optimize='min': real"),
        ("make_noisy_top_k", OVER_PURE, "i32 monotonic MaxDivergence"),
    ],
)
def test_an_unsound_or_loose_edit_is_refuted(tmp_path, name, edit, select):
    summary = prove_edited(tmp_path, name, {SHARED: [edit]}, select=select)
    assert summary["status"] == "counterexample", summary
    assert "map" in summary["counterexamples"][0]["example"], summary  # the map, not a raise


def test_the_unedited_copy_is_proved(tmp_path):
    summary = prove_edited(tmp_path, "make_noisy_top_k", {}, select="i32 non-monotonic")
    assert summary["status"] == "proved", summary
