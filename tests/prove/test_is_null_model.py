"""make_is_null's SMT model equals the code on random records, and unsound edits of the code
are refuted by ``certdp prove``."""

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.transformations.is_null.smt_model import KINDS, encode_record, null_record

from .edited import prove_edited


def _records(kind):
    if kind == "option-i32":
        return st.one_of(st.none(), st.integers(-(2**31), 2**31 - 1))
    return st.floats(width=32 if kind == "f32" else 64)


@given(st.data())
def test_model_is_the_code(data):
    kind = data.draw(st.sampled_from(KINDS))
    records = data.draw(st.lists(_records(kind), max_size=6))
    dp.enable_features("contrib")
    element = (dp.option_domain(dp.atom_domain(T="i32")) if kind == "option-i32"
               else dp.atom_domain(T=kind))  # fmt: skip
    built = dp.t.make_is_null(dp.vector_domain(element), dp.symmetric_distance())
    for record, image in zip(records, built(records)):
        model = z3.simplify(null_record(encode_record(record, kind), kind))
        assert z3.is_true(z3.simplify(model == z3.BoolVal(image))), (record, image)


EDITS = {
    "None not null": (
        "return value is None or (type(value) is float and math.isnan(value))  # label: row-null",
        "return type(value) is float and math.isnan(value)  # label: row-null",
        "option-i32",
    ),
    "NaN not null": (
        "return value is None or (type(value) is float and math.isnan(value))  # label: row-null",
        "return value is None  # label: row-null",
        "f64",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_edits_are_refuted(tmp_path, edit):
    old, new, select = EDITS[edit]
    file = "transformations/is_null/make_is_null.py"
    summary = prove_edited(tmp_path, "make_is_null", {file: [(old, new)]}, select=select)
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved(tmp_path):
    summary = prove_edited(tmp_path, "make_is_null", {}, select="option-i32")
    assert summary["status"] == "proved", summary
