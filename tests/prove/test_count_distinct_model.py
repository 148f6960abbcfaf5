"""make_count_distinct's SMT model equals the code on concrete datasets, and unsound edits of the
code (half the map, a cap beyond the type) are refuted by ``certdp prove``."""

import numpy as np
import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_of
from certdp.core.types import NUMERIC_TYPES, carrier
from certdp.transformations.count_by_categories.smt_model import converted, saturated
from certdp.transformations.count_distinct.smt_model import distinct

from .edited import prove_edited


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # not vetted in this branch yet


@given(st.sampled_from(NUMERIC_TYPES), st.lists(st.integers(0, 3), max_size=8))
def test_model_is_the_code(name, records):
    TO = carrier(name)
    built = dp.t.make_count_distinct(
        dp.vector_domain(dp.atom_domain(T="u8")), dp.symmetric_distance(), TO=name
    )
    code = built(np.array(records, dtype=np.uint8))
    symbols = [z3.BitVecVal(r, 2) for r in records]
    model = z3.simplify(converted(saturated(distinct(symbols), TO), TO))
    assert code == (model.as_long() if TO.is_integer else float_of(model))


EDITS = {
    "half the map": (
        "transformations/_counting/count_type.py",
        "return d_in  # label: map-int",
        "return d_in // 2  # label: map-int",
        "TO=i32 d_in=3: every dataset",
    ),
    "a cap beyond the type": (
        "transformations/_counting/counts.py",
        "return TO.max if TO.is_integer",
        "return TO.max + 1 if TO.is_integer",
        "TO=u16 every count",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_unsound_edits_are_refuted(tmp_path, edit):
    file, old, new, select = EDITS[edit]
    summary = prove_edited(tmp_path, "make_count_distinct", {file: [(old, new)]}, select)
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path):
    summary = prove_edited(tmp_path, "make_count_distinct", {}, select="TO=i32 d_in=3: every")
    assert summary["status"] == "proved", summary
