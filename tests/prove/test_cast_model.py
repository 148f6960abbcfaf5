"""make_cast's SMT model equals the code on random records (None where the model says none, the
value bit for bit where it says some), and unsound edits of the code are refuted by
``certdp prove``."""

import numpy as np
import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.transformations.cast.smt_model import PAIRS, cast_option, encode_option
from certdp.transformations.cast_default.smt_model import encode

from .edited import prove_edited
from .test_cast_default_model import _DTYPES, _records


@given(st.data())
def test_model_is_the_code(data):
    source, target = data.draw(st.sampled_from(PAIRS))
    records = data.draw(st.lists(_records(source), max_size=6))
    dp.enable_features("contrib")
    built = dp.t.make_cast(
        dp.vector_domain(dp.atom_domain(T=source)), dp.symmetric_distance(), TOA=target
    )
    images = built(np.array(records, dtype=_DTYPES[source]))
    for record, image in zip(records, images):
        model = cast_option(encode(record, source), source, target)
        assert z3.is_true(z3.simplify(model == encode_option(image, target))), (record, image)


EDITS = {
    "NaN kept instead of None": (
        "transformations/cast/make_cast.py",
        "if value is None or (TOA.is_float and math.isnan(value)):  # label: row-none",
        "if value is None:  # label: row-none",
        "f64->f32",
    ),
    "half the map": (
        "transformations/_rowmap/rowmap.py",
        "return d_in  # label: stability-map",
        "return d_in // 2  # label: stability-map",
        "f64->i32",
    ),
    "unsigned texts may be negative": (
        "transformations/_cast/convert.py",
        "grammar = _SIGNED if TOA.is_signed else _UNSIGNED",
        "grammar = _SIGNED",
        "String->u32",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_edits_are_refuted(tmp_path, edit):
    file, old, new, select = EDITS[edit]
    summary = prove_edited(tmp_path, "make_cast", {file: [(old, new)]}, select=select)
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path):
    for select in ("f64->f32", "String->u32"):
        summary = prove_edited(tmp_path / select.replace(">", ""), "make_cast", {}, select=select)
        assert summary["status"] == "proved", summary
