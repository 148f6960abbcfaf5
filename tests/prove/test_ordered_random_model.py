"""The make_ordered_random model: the Fisher--Yates model is the code under scripted draws, the
unedited code is proved, and unsound edits (of the map and of the shuffle) are refuted."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.transformations.ordered_random.smt_model import (
    draw_sequences,
    fisher_yates_model,
    obligations,
    run_scripted,
)

from .edited import prove_edited


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")


MODULE = "transformations/ordered_random/make_ordered_random.py"


@st.composite
def _records_and_draws(draw):
    records = draw(st.lists(st.integers(-(2**31), 2**31 - 1), max_size=9))
    draws = [draw(st.integers(0, i)) for i in range(len(records) - 1, 0, -1)]
    return records, draws


@given(_records_and_draws(), st.sampled_from(["symmetric_distance", "change_one_distance"]))
def test_fisher_yates_model_is_the_code(case, metric):
    records, draws = case
    built = dp.t.make_ordered_random(
        dp.vector_domain(dp.atom_domain(T="i32")), getattr(dp, metric)()
    )
    output, asked = run_scripted(built, list(records), draws)
    assert output == fisher_yates_model(records, draws)
    assert asked == [i + 1 for i in range(len(records) - 1, 0, -1)]
    assert sorted(output) == sorted(records)


def test_draw_sequences_are_counted():
    assert [len(draw_sequences(m)) for m in range(6)] == [1, 1, 2, 6, 24, 120]
    assert obligations(["make_resize"]) == [] and len(obligations(["make_ordered_random"])) > 100


EDITS = {
    "map one below": [("return d_in  # label: map", "return max(d_in - 1, 0)  # label: map")],
    "map halved": [("return d_in  # label: map", "return d_in // 2  # label: map")],
    "shuffle that keeps the first record in place": [
        (
            "return shuffled(records)  # label: shuffle",
            "return records[:1] + shuffled(records[1:])  # label: shuffle",
        )
    ],
    "Hamming read as insert-delete": [
        (
            "output_metric = HammingDistance()  # label: to-hamming",
            "output_metric = InsertDeleteDistance()  # label: to-hamming",
        )
    ],
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_unsound_edits_are_refuted(tmp_path, edit):
    summary = prove_edited(tmp_path, "make_ordered_random", {MODULE: EDITS[edit]})
    assert summary["status"] == "counterexample", summary


# `certdp prove make_ordered_random` on an unedited copy: the full re-proof is `certdp prove`'s; `make test` checks that its committed
# result is current and proved (test_prove.py) and that a stale one fails `certdp audit
# --strict` (test_stale_result_fails_the_audit.py)
@pytest.mark.slow
def test_the_unedited_code_is_proved(tmp_path):
    assert prove_edited(tmp_path, "make_ordered_random", {})["status"] == "proved"
