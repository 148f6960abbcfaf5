"""make_impute_constant's SMT model equals the code bit for bit on random records, and unsound
edits of the code (NaN kept by the row, or half the row-by-row map) are refuted by ``certdp
prove`` (the obligations run the real function on special records and call the real map)."""

import math
import struct

import numpy as np
import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_of, float_sort, float_value
from certdp.transformations.cast.smt_model import encode_option
from certdp.transformations.cast_default.smt_model import encode
from certdp.transformations.impute_constant.smt_model import impute_option, impute_record

from .edited import prove_edited


def _bits(value, T):
    if math.isnan(value):
        return "nan"
    packed = struct.pack("<f", value) if T == "f32" else struct.pack("<d", value)
    return packed


def _floats(T, nan):
    width = 32 if T == "f32" else 64
    special = [0.0, -0.0, math.inf, -math.inf] + ([math.nan] if nan else [])
    return st.one_of(st.sampled_from(special), st.floats(allow_nan=nan, width=width))


@given(st.data())
def test_model_is_the_code(data):
    T = data.draw(st.sampled_from(["f32", "f64"]))
    constant = data.draw(_floats(T, nan=False))
    records = data.draw(st.lists(_floats(T, nan=True), max_size=6))
    cast = np.float32 if T == "f32" else float
    dp.enable_features("contrib")
    built = dp.t.make_impute_constant(
        dp.vector_domain(dp.atom_domain(T=T, nan=True)), dp.symmetric_distance(), constant
    )
    code = [float(v) for v in built([cast(v) for v in records])]
    sort = float_sort(T)
    model = [
        float_of(impute_record(float_value(v, sort) if not math.isnan(v) else _nan(sort), c))
        for v, c in ((v, float_value(constant, sort)) for v in records)
    ]
    assert [_bits(v, T) for v in model] == [_bits(v, T) for v in code]


@given(st.data())
def test_model_is_the_code_on_numpy_arrays_and_every_input_domain(data):
    """Random model-vs-code check on NumPy arrays of the native dtype, for element domains with
    NaN, without NaN and bounded: every output is a Python float whose bits are the model's."""
    T = data.draw(st.sampled_from(["f32", "f64"]))
    dtype = np.float32 if T == "f32" else np.float64
    constant = data.draw(_floats(T, nan=False))
    kind = data.draw(st.sampled_from(["nan", "no-nan", "bounded"]))
    records = data.draw(st.lists(_floats(T, nan=kind == "nan"), max_size=6))
    if kind == "bounded":
        finite = [v for v in records if math.isfinite(v)] or [0.0]
        element = dp.atom_domain(bounds=(min(finite), max(finite)), T=T)
        records = [v for v in records if math.isfinite(v)]
    else:
        element = dp.atom_domain(T=T, nan=kind == "nan")
    dp.enable_features("contrib")
    built = dp.t.make_impute_constant(
        dp.vector_domain(element), dp.insert_delete_distance(), constant
    )
    code = built(np.array(records, dtype=dtype))
    assert all(type(v) is float for v in code)
    sort = float_sort(T)
    target = float_value(constant, sort)
    model = [
        float_of(impute_record(_nan(sort) if math.isnan(v) else float_value(v, sort), target))
        for v in records
    ]
    assert [_bits(v, T) for v in model] == [_bits(v, T) for v in code]


def _nan(sort):
    import z3

    return z3.fpNaN(sort)


EDITS = {
    "nan kept": (
        "transformations/impute_constant/make_impute_constant.py",
        "if value is None or (T.is_float and math.isnan(value)):  # label: row",
        "if value is None:  # label: row",
    ),
    "half the map": (
        "transformations/_rowmap/rowmap.py",
        "return d_in  # label: stability-map",
        "return d_in // 2  # label: stability-map",
    ),
}


#: The comprehension (make_impute_constant.tex) computes the row function's values for lists of
#: Python values: an edit of the row is made there too, the same edit of the same algorithm.
_FLOAT_ROW = "constant if record is None or record != record else record for record in data"
_ROW = "return [constant if record is None else record for record in data]  # label: filled"
FAST_EDITS = {
    "nan kept": [(_FLOAT_ROW, "constant if record is None else record for record in data")],
    "None kept": [(_ROW, "return list(data)  # label: filled")],
    "NaN inside an option kept": [
        (_FLOAT_ROW, "constant if record is None else record for record in data")
    ],
    "probe 7 replaced by the constant": [
        (_ROW, _ROW.replace("record is None", "record is None or record == 7"))
    ],
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_unsound_edits_are_refuted(tmp_path, edit):
    file, old, new = EDITS[edit]
    edits = [(old, new)] + FAST_EDITS.get(edit, [])
    summary = prove_edited(
        tmp_path, "make_impute_constant", {file: edits}, select="f32 constant=1.5"
    )
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path):
    summary = prove_edited(tmp_path, "make_impute_constant", {}, select="f32 constant=1.5")
    assert summary["status"] == "proved", summary


#: Unsound edits of the option path, each refuted on the option obligations named.
OPTION_EDITS = {
    "None kept": (
        "if value is None or (T.is_float and math.isnan(value)):  # label: row",
        "if T.is_float and value is not None and math.isnan(value):  # label: row",
        "option-i32",
    ),
    "NaN inside an option kept": (
        "if value is None or (T.is_float and math.isnan(value)):  # label: row",
        "if value is None:  # label: row",
        "option-f64",
    ),
    # The output-domain claim is read from the code's output_domain (referee-casts2).
    "a false output domain": (
        "input_domain, atom_domain(T=T.name, nan=False if T.is_float else None), input_metric,",
        "input_domain, atom_domain(T=T.name, bounds=(0, 5) if T.name == 'i32' else None), "
        "input_metric,",
        "option-i32 constant=0 symmetric",
    ),
    # referee-casts2: refuted because 7 is now a probe record (not symbolically).
    "probe 7 replaced by the constant": (
        "return value  # label: keep",
        "return constant if value == 7 else value  # label: keep",
        "option-i32 constant=0 symmetric",
    ),
}


@pytest.mark.parametrize("edit", sorted(OPTION_EDITS))
def test_unsound_edits_of_the_option_path_are_refuted(tmp_path, edit):
    old, new, select = OPTION_EDITS[edit]
    file = "transformations/impute_constant/make_impute_constant.py"
    edits = [(old, new)] + FAST_EDITS.get(edit, [])
    summary = prove_edited(tmp_path, "make_impute_constant", {file: edits}, select=select)
    assert summary["status"] == "counterexample", summary


def test_the_unedited_option_path_is_proved(tmp_path):
    summary = prove_edited(tmp_path, "make_impute_constant", {}, select="option-")
    assert summary["status"] == "proved", summary


@given(st.data())
def test_option_model_is_the_code(data):
    inner = data.draw(st.sampled_from(["i32", "f64"]))
    value = st.integers(-(2**31), 2**31 - 1) if inner == "i32" else st.floats()
    records = data.draw(st.lists(st.one_of(st.none(), value), max_size=6))
    constant = data.draw(value.filter(lambda v: v == v))
    dp.enable_features("contrib")
    domain = dp.vector_domain(dp.option_domain(dp.atom_domain(T=inner)))
    built = dp.t.make_impute_constant(domain, dp.symmetric_distance(), constant)
    target = encode(constant, inner)
    for record, image in zip(records, built(records)):
        model = z3.simplify(impute_option(encode_option(record, inner), target, inner))
        assert z3.is_true(z3.simplify(model == encode(image, inner))), (record, image)
