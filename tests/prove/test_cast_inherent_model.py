"""make_cast_inherent's SMT model equals the code bit for bit on random records (all NaNs
alike), and unsound edits of the code are refuted by ``certdp prove``."""

import math

import numpy as np
import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.transformations.cast_default.smt_model import encode
from certdp.transformations.cast_inherent.smt_model import PAIRS, cast_nan

from .edited import prove_edited
from .test_cast_default_model import _DTYPES, _records


@given(st.data())
def test_model_is_the_code(data):
    source, target = data.draw(st.sampled_from(PAIRS))
    records = data.draw(st.lists(_records(source), max_size=6))
    dp.enable_features("contrib")
    built = dp.t.make_cast_inherent(
        dp.vector_domain(dp.atom_domain(T=source)), dp.symmetric_distance(), TOA=target
    )
    images = built(np.array(records, dtype=_DTYPES[source]))
    for record, image in zip(records, images):
        model = z3.simplify(cast_nan(encode(record, source), source, target))
        if math.isnan(image):
            assert z3.is_true(z3.simplify(z3.fpIsNaN(model))), record
        else:
            assert z3.is_true(z3.simplify(model == encode(image, target))), (record, image)


EDITS = {
    "half the map": (
        "transformations/_rowmap/rowmap.py",
        "return d_in  # label: stability-map",
        "return d_in // 2  # label: stability-map",
        "f64->f32",
    ),
    "f32 rounded towards zero": (
        "transformations/_cast/convert.py",
        'return value if TOA.name == "f64" else nearest_binary32(value)  # label: float-float',
        'return value if TOA.name == "f64" else float(np.nextafter(np.float32(nearest_binary32('
        "value)), np.float32(0)) if abs(nearest_binary32(value)) > abs(value) else "
        "nearest_binary32(value))  # label: float-float",
        "f64->f32",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_edits_are_refuted(tmp_path, edit):
    file, old, new, select = EDITS[edit]
    summary = prove_edited(tmp_path, "make_cast_inherent", {file: [(old, new)]}, select=select)
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path):
    summary = prove_edited(tmp_path, "make_cast_inherent", {}, select="f64->f32")
    assert summary["status"] == "proved", summary
