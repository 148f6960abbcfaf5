"""make_b_ary_tree's SMT model equals the code on concrete data (layout, sums, saturation,
truncation), and unsound edits of the code (a layer short in the L1 map, the L2 map of OpenDP
0.16) are refuted by ``certdp prove`` (the obligations call the real map)."""

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.core.types import carrier
from certdp.prove.solver import solve
from certdp.transformations.b_ary_tree.smt_model import instance, model_tree

from .edited import prove_edited


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # not vetted in this branch yet


@given(
    st.sampled_from(["i8", "u8"]),
    st.integers(1, 12),
    st.integers(2, 5),
    st.data(),
)
def test_model_is_the_code(name, n, b, data):
    T = carrier(name)
    values = data.draw(st.lists(st.integers(T.min, T.max), max_size=n + 3))
    built = dp.t.make_b_ary_tree(
        dp.vector_domain(dp.atom_domain(T=name)), dp.l1_distance(T="i32"), n, b
    )
    symbols = [z3.BitVecVal(v, T.bits) for v in values]
    model = [z3.simplify(e).as_signed_long() for e in model_tree(symbols, n, b, T)]
    assert model == built(values)


def test_without_saturation_the_domain_obligation_is_refuted():
    outcome = solve(instance("i8", "domain", 4, 2, 4, saturate=False), 60)
    assert outcome["status"] == "counterexample", outcome


FILE = "transformations/b_ary_tree/make_b_ary_tree.py"
EDITS = {
    "a layer short": (
        [("d_out = math.ceil(d * L)  # label: map-l1", "d_out = math.ceil(d * (L - 1))")],
        "T=i8 n=3 b=2 m=3 L1<i32> d_in=3",
    ),
    "OpenDP's L2 map": (
        [("squared = math.ceil(d * d * S)", "squared = math.ceil(d * d * L * L)")],
        "T=u8 n=4 b=4 m=4 L2<i32> d_in=2",
    ),
    "the layer count of a shorter tree": (
        [("while width < leaf_count:", "while width * branching_factor < leaf_count:")],
        "T=i8 n=3 b=2 m=3 L1<i32> d_in=1",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_unsound_edits_are_refuted(tmp_path, edit):
    replacements, select = EDITS[edit]
    summary = prove_edited(tmp_path, "make_b_ary_tree", {FILE: replacements}, select)
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved_on_the_same_instances(tmp_path):
    summary = prove_edited(tmp_path, "make_b_ary_tree", {}, select="T=u8 n=4 b=4 m=4 L2<i32>")
    assert summary["status"] == "proved", summary
