"""The cast models call the real map beyond d_in = 1 (referee 18): a row map that is right at
d_in <= 1 only, or that raises at a larger d_in, is refuted for each of the three casts."""

from __future__ import annotations

import pytest

import certdp.prelude as dp
from certdp.transformations._cast.cast_smt import MAP_D_INS

from .edited import prove_edited

OLD = "return d_in  # label: stability-map"
ROWMAP = "transformations/_rowmap/rowmap.py"


@pytest.fixture(autouse=True)
def _features():
    dp.enable_features("contrib")
    yield
    dp.disable_features("contrib")


def _select(name):
    return "f64->i32" if name != "make_cast_inherent" else "f64->f32"


def test_the_map_is_called_at_several_distances():
    assert {0, 1, 2, 3, 7, 10, 100} <= set(MAP_D_INS) and max(MAP_D_INS) > 2**62


@pytest.mark.parametrize("name", ["make_cast", "make_cast_inherent", "make_cast_default"])
def test_cast_models_check_the_map_beyond_d_in_1(tmp_path, name):
    edit = (OLD, "return d_in if d_in <= 1 else d_in // 2  # label: stability-map")
    summary = prove_edited(tmp_path, name, {ROWMAP: [edit]}, select=_select(name))
    assert summary["status"] == "counterexample", summary


def test_a_map_that_raises_beyond_1_is_a_counterexample_not_an_error(tmp_path):
    edit = (OLD, "return d_in if d_in <= 1 else 1 // 0  # label: stability-map")
    summary = prove_edited(tmp_path, "make_cast", {ROWMAP: [edit]}, select="f64->i32")
    assert summary["status"] == "counterexample", summary
