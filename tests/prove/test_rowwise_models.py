"""The models of make_find, make_find_bin, make_index, make_identity, make_drop_null and
make_impute_uniform_float equal the code on random records, and unsound edits of the code are
refuted by ``certdp prove`` (the obligations run the real function and call the real map)."""

import math

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.transformations.drop_null.smt_model import KINDS as NULL_KINDS
from certdp.transformations.drop_null.smt_model import encode_record, kept_record
from certdp.transformations.find.smt_model import CATEGORIES, code_image, find_record
from certdp.transformations.find_bin.smt_model import EDGES, bin_record
from certdp.transformations.identity.smt_model import same_vector
from certdp.transformations.index.smt_model import TABLES, index_record

from .edited import prove_edited

I32 = st.integers(-(2**31), 2**31 - 1)


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


def _i32s():
    return dp.vector_domain(dp.atom_domain(T="i32"))


def _value(term) -> int:
    return z3.simplify(term).as_long()


@given(st.sampled_from(CATEGORIES), st.lists(I32, max_size=6))
def test_find_model_is_the_code(categories, records):
    built = dp.t.make_find(_i32s(), dp.symmetric_distance(), list(categories))
    records = records + list(categories)
    for record, image in zip(records, built(records)):
        assert _value(find_record(z3.IntVal(record), categories)) == code_image(image)


@given(st.sampled_from(EDGES), st.lists(I32, max_size=6))
def test_find_bin_model_is_the_code(edges, records):
    built = dp.t.make_find_bin(_i32s(), dp.symmetric_distance(), list(edges))
    records = records + list(edges)
    for record, image in zip(records, built(records)):
        assert _value(bin_record(z3.IntVal(record), edges)) == image


@given(st.sampled_from(TABLES), st.lists(st.integers(0, 2**64 - 1), max_size=6))
def test_index_model_is_the_code(table, records):
    categories, null = table
    domain = dp.vector_domain(dp.atom_domain(T="usize"))
    built = dp.t.make_index(domain, dp.symmetric_distance(), list(categories), null, TOA="i32")
    records = records + list(range(len(categories) + 1))
    for record, image in zip(records, built(records)):
        assert _value(index_record(z3.IntVal(record), categories, null)) == image


@given(st.lists(st.floats(), max_size=6))
def test_identity_returns_the_records_unchanged(records):
    built = dp.t.make_identity(dp.vector_domain(dp.atom_domain(T="f64")), dp.symmetric_distance())
    assert same_vector(built(records), records)


def _nullable(kind):
    if kind == "option-i32":
        return st.one_of(st.none(), I32)
    return st.floats(width=32 if kind == "f32" else 64)


@given(st.data())
def test_drop_null_model_is_the_code(data):
    kind = data.draw(st.sampled_from(NULL_KINDS))
    records = data.draw(st.lists(_nullable(kind), max_size=6))
    element = (dp.option_domain(dp.atom_domain(T="i32")) if kind == "option-i32"
               else dp.atom_domain(T=kind))  # fmt: skip
    built = dp.t.make_drop_null(dp.vector_domain(element), dp.symmetric_distance())
    kept = [
        r for r in records if z3.is_true(z3.simplify(kept_record(encode_record(r, kind), kind)))
    ]
    assert same_vector(built(records), kept)


@given(st.lists(st.floats(allow_nan=True), max_size=6))
def test_impute_uniform_float_keeps_records_and_draws_within_bounds(records):
    domain = dp.vector_domain(dp.atom_domain(T="f64", nan=True))
    built = dp.t.make_impute_uniform_float(domain, dp.symmetric_distance(), (-1.0, 2.5))
    for record, image in zip(records, built(records)):
        if math.isnan(record):
            assert type(image) is float and -1.0 <= image <= 2.5
        else:
            assert same_vector([image], [record])


#: name -> (file, old, new, obligation selector)
EDITS = {
    "find: absent records at position 0": (
        "make_find",
        "transformations/find/make_find.py",
        "return positions.get(record_value(record))  # label: row",
        "return positions.get(record_value(record), 0)  # label: row",
        "categories=[3",
    ),
    "find_bin: records on an edge go left": (
        "make_find_bin",
        "transformations/find_bin/make_find_bin.py",
        "return bisect.bisect_right(sorted_edges, record_value(record))  # label: row",
        "return bisect.bisect_left(sorted_edges, record_value(record))  # label: row",
        "edges=[0]",
    ),
    "index: the position past the end": (
        "make_index",
        "transformations/index/make_index.py",
        "return table[position] if position < len(table) else default  # label: row-lookup",
        "return table[position] if position < len(table) else position  # label: row-lookup",
        "categories=[10",
    ),
    "identity: half the map": (
        "make_identity",
        "transformations/identity/make_identity.py",
        "return d_in  # label: stability-map",
        "return d_in // 2  # label: stability-map",
        "f64 symmetric d_in=1",
    ),
    "drop_null: NaN kept": (
        "make_drop_null",
        "transformations/drop_null/make_drop_null.py",
        "return value is None or (type(value) is float and math.isnan(value))  # label: null",
        "return value is None  # label: null",
        "f64 symmetric d_in=1",
    ),
    "drop_null: a map one below": (
        "make_drop_null",
        "transformations/drop_null/make_drop_null.py",
        "return d_in  # label: stability-map",
        "return d_in - 1  # label: stability-map",
        "option-i32 insert_delete d_in=2",
    ),
    # The output-domain obligations read the code's own output_domain (not a range in the
    # model), so a false output-domain claim is refuted (referee-casts2).
    "find_bin: a false output domain": (
        "make_find_bin",
        "transformations/find_bin/make_find_bin.py",
        'output_element = atom_domain(T="usize")  # label: output-element',
        'output_element = atom_domain(T="usize", bounds=(0, 0))  # label: output-element',
        "edges=[0]",
    ),
    "find: a false output domain": (
        "make_find",
        "transformations/find/make_find.py",
        'output_element = option_domain(atom_domain(T="usize"))  # label: output-element',
        'output_element = option_domain(atom_domain(T="usize", bounds=(0, 0)))  '
        "# label: output-element",
        "categories=[3",
    ),
    "index: a false output domain": (
        "make_index",
        "transformations/index/make_index.py",
        "output_element = atom_domain(T=TOA.name, nan=True if TOA.is_float else None)",
        "output_element = atom_domain(T=TOA.name, bounds=(0, 9) if TOA.name == 'i32' else None)",
        "categories=[10",
    ),
    "drop_null: a false output domain": (
        "make_drop_null",
        "transformations/drop_null/make_drop_null.py",
        "atom_domain(T=T.name, nan=False if T.is_float else None)",
        "atom_domain(T=T.name, bounds=(0, 5) if T.name == 'i32' else None, "
        "nan=False if T.is_float else None)",
        "option-i32 symmetric d_in=1",
    ),
    # referee-casts2's edits of one record: refuted because 12345 and 7 are now probe records
    # (the code is tied to the model only on probes; an edit at another record is not refuted).
    "find_bin: probe 12345 sent to bin 0": (
        "make_find_bin",
        "transformations/find_bin/make_find_bin.py",
        "return bisect.bisect_right(sorted_edges, record_value(record))  # label: row",
        "return 0 if record_value(record) == 12345 else "
        "bisect.bisect_right(sorted_edges, record_value(record))  # label: row",
        "edges=[0]",
    ),
    "find: probe 12345 found at 0": (
        "make_find",
        "transformations/find/make_find.py",
        "return positions.get(record_value(record))  # label: row",
        "return 0 if record_value(record) == 12345 else "
        "positions.get(record_value(record))  # label: row",
        "categories=[3",
    ),
    "index: probe position 12345 in the table": (
        "make_index",
        "transformations/index/make_index.py",
        "return table[position] if position < len(table) else default  # label: row-lookup",
        "return table[0] if position == 12345 else "
        "(table[position] if position < len(table) else default)  # label: row-lookup",
        "categories=[10",
    ),
    "drop_null: probe 7 dropped": (
        "make_drop_null",
        "transformations/drop_null/make_drop_null.py",
        "return value is None or (type(value) is float and math.isnan(value))  # label: null",
        "return value is None or value == 7 or "
        "(type(value) is float and math.isnan(value))  # label: null",
        "option-i32 symmetric d_in=1",
    ),
    "impute_uniform_float: draws above the bounds": (
        "make_impute_uniform_float",
        "transformations/impute_uniform_float/make_impute_uniform_float.py",
        "return _nearest(Fraction(lower) + (2 * k + 1) * grain / 2, p, tiny)  # label: centre",
        "return _nearest(Fraction(upper) + (2 * k + 1) * grain / 2, p, tiny)  # label: centre",
        "f64 bounds=(-1.0, 2.5) symmetric",
    ),
    "impute_uniform_float: half the map": (
        "make_impute_uniform_float",
        "transformations/impute_uniform_float/make_impute_uniform_float.py",
        "return d_in  # label: stability-map",
        "return d_in // 2  # label: stability-map",
        "f32",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_unsound_edits_are_refuted(tmp_path, edit):
    name, file, old, new, select = EDITS[edit]
    summary = prove_edited(tmp_path, name, {file: [(old, new)]}, select=select)
    assert summary["status"] == "counterexample", summary


# `certdp prove NAME` on an unedited copy: the full re-proof is `certdp prove`'s; `make test`
# checks that its committed result is current and proved (test_prove.py) and that a stale one
# fails `certdp audit --strict` (test_stale_result_fails_the_audit.py)
@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["make_find", "make_find_bin", "make_index", "make_identity", "make_drop_null",
             "make_impute_uniform_float"],
)  # fmt: skip
def test_the_unedited_code_is_proved(tmp_path, name):
    assert prove_edited(tmp_path, name, {})["status"] == "proved"
