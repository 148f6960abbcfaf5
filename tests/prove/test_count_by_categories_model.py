"""make_count_by_categories's SMT model equals the code on concrete datasets (counts, saturation,
conversion), and unsound edits of the code (half the map, a cap beyond the type) are refuted by
``certdp prove`` (the obligations call the real map and the code's own largest_count)."""

import math

import numpy as np
import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_of
from certdp.core.types import NUMERIC_TYPES, carrier
from certdp.prove.solver import solve
from certdp.transformations.count_by_categories.smt_model import (
    WIDTH,
    converted,
    count_vector,
    instance,
    saturated,
)

from .edited import prove_edited


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # not vetted in this branch yet


@given(
    st.sampled_from(NUMERIC_TYPES),
    st.lists(st.integers(0, 3), max_size=8),
    st.lists(st.integers(0, 3), unique=True, max_size=4),
    st.booleans(),
    st.integers(0, 300),
)
def test_model_is_the_code(name, records, categories, null_category, repeat):
    TOA = carrier(name)
    # ``repeat`` copies of the first record push counts past the saturation of i8 and u8
    data = records + records[:1] * repeat
    built = dp.t.make_count_by_categories(
        dp.vector_domain(dp.atom_domain(T="i32")),
        dp.symmetric_distance(),
        categories,
        null_category=null_category,
        TOA=name,
    )
    code = built(np.array(data, dtype=np.int32))
    symbols = [z3.BitVecVal(r, 2) for r in data]
    vector = count_vector(symbols, categories, null_category)
    model = [z3.simplify(converted(saturated(c, TOA), TOA)) for c in vector]
    if TOA.is_integer:
        assert [m.as_long() for m in model] == code
    else:
        assert [float_of(m) for m in model] == code


@given(st.sampled_from(NUMERIC_TYPES), st.integers(0, 2**63 - 1))
def test_saturation_model_is_the_codes_cap(name, n):
    TOA = carrier(name)
    from certdp.transformations._counting import largest_count

    model = z3.simplify(saturated(z3.BitVecVal(n, WIDTH), TOA)).as_long()
    assert model == min(n, largest_count(TOA))
    if TOA.is_float:
        value = float_of(z3.simplify(converted(z3.BitVecVal(model, WIDTH), TOA)))
        assert value == float(model) and math.isfinite(value)


def test_without_saturation_the_domain_obligation_is_refuted():
    for name in ("i8", "u8", "f32"):
        outcome = solve(instance(carrier(name), "domain", saturate=False), 60)
        assert outcome["status"] == "counterexample", outcome


def test_saturation_points_are_proved():
    for name in ("i8", "u16", "f32"):
        assert solve(instance(carrier(name), "domain"), 60)["status"] == "proved"
        assert solve(instance(carrier(name), "counts", "L2", "f64", 3), 60)["status"] == "proved"


FILE = "transformations/count_by_categories/make_count_by_categories.py"
COUNTS = "transformations/_counting/counts.py"
EDITS = {
    "half the map": (
        [("return d_in  # label: map-int", "return d_in // 2  # label: map-int")],
        "TOA=i32 L1<i32> d_in=3: count",
    ),
    "a cap beyond the type": (
        [("return TO.max if TO.is_integer", "return TO.max + 1 if TO.is_integer")],
        "TOA=i8 every count",
        COUNTS,
    ),
    "the square root for L2": (
        [
            (
                "return inf_cast(d_in, MT.name)  # label: map-float",
                "return inf_cast(d_in, MT.name) ** 0.5  # label: map-float",
            )
        ],
        "TOA=i32 L2<f64> null=True d_in=2",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_unsound_edits_are_refuted(tmp_path, edit):
    replacements, select, *file = EDITS[edit]
    summary = prove_edited(
        tmp_path, "make_count_by_categories", {(file or [FILE])[0]: replacements}, select
    )
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path):
    summary = prove_edited(tmp_path, "make_count_by_categories", {}, select="TOA=i8 every count")
    assert summary["status"] == "proved", summary
