"""make_count_by's SMT model equals the code on concrete datasets (keys present, saturated counts),
and unsound edits of the code (a component of the map halved, no saturation) are refuted by
``certdp prove`` (the obligations call the real map and the code's own largest_count)."""

import numpy as np
import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_of
from certdp.core.types import NUMERIC_TYPES, carrier
from certdp.prove.solver import solve
from certdp.transformations.count_by.smt_model import instance
from certdp.transformations.count_by_categories.smt_model import WIDTH, converted, saturated

from .edited import prove_edited


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # not vetted in this branch yet


@given(
    st.sampled_from(NUMERIC_TYPES),
    st.lists(st.integers(0, 3), max_size=8),
    st.integers(0, 300),
)
def test_model_is_the_code(name, records, repeat):
    TV = carrier(name)
    data = records + records[:1] * repeat
    built = dp.t.make_count_by(
        dp.vector_domain(dp.atom_domain(T="u8")), dp.symmetric_distance(), TV=name
    )
    code = built(np.array(data, dtype=np.uint8))
    model = {}
    for key in range(4):
        count = z3.BitVecVal(sum(1 for r in data if r == key), WIDTH)
        if z3.simplify(count != 0):
            value = z3.simplify(converted(saturated(count, TV), TV))
            model[key] = value.as_long() if TV.is_integer else float_of(value)
    assert code == model
    assert all(type(v) is (int if TV.is_integer else float) for v in code.values())


def test_without_saturation_the_domain_obligation_is_refuted():
    outcome = solve(instance(carrier("u8"), "domain", saturate=False), 60)
    assert outcome["status"] == "counterexample", outcome


FILE = "transformations/count_by/make_count_by.py"
COUNTS = "transformations/_counting/counts.py"
# The model reads the real map and the shared cap; a function without the cap is caught by the
# model-vs-code test above, a cap beyond the type by the domain obligations.
EDITS = {
    "l0 halved": (
        FILE,
        "return Triple((d_in, bound, bound))  # label: map-triple",
        "return Triple((d_in // 2, bound, bound))  # label: map-triple",
        "TV=i32 d_in=3: every dataset",
    ),
    "linf halved": (
        FILE,
        "return Triple((d_in, bound, bound))  # label: map-triple",
        "return Triple((d_in, bound, bound // 2))  # label: map-triple",
        "TV=i32 d_in=3: two keys",
    ),
    "a cap beyond the type": (
        COUNTS,
        "return TO.max if TO.is_integer",
        "return TO.max + 1 if TO.is_integer",
        "TV=i8 every count",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_unsound_edits_are_refuted(tmp_path, edit):
    file, old, new, select = EDITS[edit]
    summary = prove_edited(tmp_path, "make_count_by", {file: [(old, new)]}, select)
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path):
    summary = prove_edited(tmp_path, "make_count_by", {}, select="TV=i32 d_in=3: two keys")
    assert summary["status"] == "proved", summary
