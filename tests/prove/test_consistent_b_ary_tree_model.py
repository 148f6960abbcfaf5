"""make_consistent_b_ary_tree's SMT model against the code on random trees, and unsound edits
of the code that ``certdp prove make_consistent_b_ary_tree`` must refute (its binding
obligation runs the edited Function on the probe trees)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_sort, float_value
from certdp.transformations.consistent_b_ary_tree.smt_model import _cast, tree_model

from .edited import prove_edited

FILE = "transformations/consistent_b_ary_tree/make_consistent_b_ary_tree.py"


@given(
    st.integers(2, 3),
    st.sampled_from(["f32", "f64"]),
    st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=13),
)
def test_model_leaves_are_the_code_leaves(b, TOA, tree):
    import z3

    dp.enable_features("contrib")
    out = dp.t.make_consistent_b_ary_tree(b, TIA="i64", TOA=TOA)(tree)
    sort = float_sort(TOA)
    model = tree_model([float_value(_cast(v, TOA), sort) for v in tree], b, TOA)
    assert len(model) == len(out)
    for m, o in zip(model, out):
        assert z3.is_true(z3.simplify(z3.fpEQ(z3.simplify(m), float_value(o, sort))))


@pytest.mark.parametrize(
    "edit",
    [
        ("if correction == 0:", "if True:"),
        ("alpha = alpha * var[i]", "alpha = F(0.5)"),
    ],
)
def test_an_unsound_edit_is_refuted(tmp_path, edit):
    summary = prove_edited(tmp_path, "make_consistent_b_ary_tree", {FILE: [edit]}, select="binding")
    assert summary["status"] == "counterexample", summary
