"""make_cast_default's SMT model equals the code bit for bit on random records, and unsound or
wrong edits of the code are refuted by ``certdp prove`` (the obligations run the real function
on special records and call the real map)."""

import numpy as np
import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.transformations.cast_default.smt_model import PAIRS, cast_record, encode

from .edited import prove_edited

_DTYPES = {"f32": np.float32, "f64": np.float64, "i64": np.int64, "bool": np.bool_,
           "String": object}  # fmt: skip


def _records(source):
    if source == "String":  # texts near the integer grammar, and any text
        near = st.from_regex(r"[+\- ]?[0-9]{0,11}[e.x ]?[0-9]?", fullmatch=True)
        return st.one_of(near, st.text(max_size=6))
    if source == "bool":
        return st.booleans()
    if source == "i64":
        return st.integers(-(2**63), 2**63 - 1)
    return st.floats(width=32 if source == "f32" else 64)


@given(st.data())
def test_model_is_the_code(data):
    source, target = data.draw(st.sampled_from(PAIRS))
    records = data.draw(st.lists(_records(source), max_size=6))
    dp.enable_features("contrib")
    built = dp.t.make_cast_default(
        dp.vector_domain(dp.atom_domain(T=source)), dp.symmetric_distance(), TOA=target
    )
    images = built(np.array(records, dtype=_DTYPES[source]))
    for record, image in zip(records, images):
        model = z3.simplify(cast_record(encode(record, source), source, target))
        assert z3.is_true(z3.simplify(model == encode(image, target))), (record, image)


EDITS = {
    "half the map": (
        "transformations/_rowmap/rowmap.py",
        "return d_in  # label: stability-map",
        "return d_in // 2  # label: stability-map",
    ),
    "rounding instead of truncation": (
        "transformations/_cast/convert.py",
        "value = math.trunc(value)  # label: int-trunc",
        "value = round(value)  # label: int-trunc",
    ),
    "saturation instead of the default": (
        "transformations/_cast/convert.py",
        "return value if TOA.min <= value <= TOA.max else None  # label: int-range",
        "return min(max(value, TOA.min), TOA.max)  # label: int-range",
    ),
}


TEXT_EDITS = {
    "Python's liberal int() on the raw text": (
        "transformations/_cast/convert.py",
        "if grammar.fullmatch(text) is None:  # label: text-int-grammar",
        "if not text.strip().lstrip('+-').isdigit():  # label: text-int-grammar",
    ),
    "a blank text counted as true": (
        "transformations/_cast/convert.py",
        'return text != ""  # label: text-bool',
        "return text.strip() != ''  # label: text-bool",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_edits_are_refuted(tmp_path, edit):
    file, old, new = EDITS[edit]
    summary = prove_edited(tmp_path, "make_cast_default", {file: [(old, new)]}, select="f64->i32")
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize("edit", sorted(TEXT_EDITS))
def test_text_edits_are_refuted(tmp_path, edit):
    file, old, new = TEXT_EDITS[edit]
    select = "String->i32" if "int" in edit else "String->bool"
    summary = prove_edited(tmp_path, "make_cast_default", {file: [(old, new)]}, select=select)
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path):
    summary = prove_edited(tmp_path, "make_cast_default", {}, select="f64->i32")
    assert summary["status"] == "proved", summary
