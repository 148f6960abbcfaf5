"""The models of make_metric_bounded, make_metric_unbounded and make_unordered: the z3 distance
terms equal the metric objects on random datasets, the unedited code is proved, and unsound
edits of the maps (OpenDP 0.16's ``d_in // 2`` for insert-delete to Hamming among them) are
refuted by ``certdp prove``."""

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts import smt_datasets

from .edited import prove_edited

RECORDS = st.lists(st.integers(0, 3), max_size=5)


def _value(term) -> int:
    return z3.simplify(term).as_long()


def _vector(records):
    return [z3.BitVecVal(r, 32) for r in records]


@given(RECORDS, RECORDS)
def test_distance_terms_equal_the_metric_objects(a, b):
    za, zb = _vector(a), _vector(b)
    assert _value(smt_datasets.symmetric(za, zb)) == dp.symmetric_distance().distance(a, b)
    assert _value(smt_datasets.insert_delete(za, zb)) == (
        dp.insert_delete_distance().distance(a, b)
    )
    for term, metric in ((smt_datasets.change_one, dp.change_one_distance()),
                         (smt_datasets.hamming, dp.hamming_distance())):  # fmt: skip
        value = term(za, zb)
        expected = metric.distance(a, b)
        assert (value is None and expected == float("inf")) or _value(value) == expected


EDITS = {
    "metric_bounded: OpenDP's d_in // 2 for Hamming": (
        "make_metric_bounded",
        "transformations/metric_bounded/make_metric_bounded.py",
        "return 0 if d_in < 2 else size  # label: map-hamming",
        "return d_in // 2  # label: map-hamming",
    ),
    "metric_bounded: change-one one below": (
        "make_metric_bounded",
        "transformations/metric_bounded/make_metric_bounded.py",
        "return d_in // 2  # label: map-change-one",
        "return max(d_in // 2 - 1, 0)  # label: map-change-one",
    ),
    "metric_unbounded: no doubling": (
        "make_metric_unbounded",
        "transformations/metric_unbounded/make_metric_unbounded.py",
        "return 2 * d_in  # label: map-double",
        "return d_in  # label: map-double",
    ),
    "metric_unbounded: a function that drops the last record": (
        "make_metric_unbounded",
        "transformations/metric_unbounded/make_metric_unbounded.py",
        "return copy.copy(data)  # label: function",
        "return copy.copy(data)[:-1]  # label: function",
    ),
    "unordered: half the map": (
        "make_unordered",
        "transformations/unordered/make_unordered.py",
        "return d_in  # label: map",
        "return d_in // 2  # label: map",
    ),
    "unordered: Hamming read as the symmetric distance": (
        "make_unordered",
        "transformations/unordered/make_unordered.py",
        "output_metric = ChangeOneDistance()  # label: to-change-one",
        "output_metric = SymmetricDistance()  # label: to-change-one",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_unsound_edits_are_refuted(tmp_path, edit):
    name, file, old, new = EDITS[edit]
    summary = prove_edited(tmp_path, name, {file: [(old, new)]})
    assert summary["status"] == "counterexample", summary


# `certdp prove NAME` on an unedited copy: the full re-proof is `certdp prove`'s; `make test` checks that its committed
# result is current and proved (test_prove.py) and that a stale one fails `certdp audit
# --strict` (test_stale_result_fails_the_audit.py)
@pytest.mark.slow
@pytest.mark.parametrize("name", ["make_metric_bounded", "make_metric_unbounded", "make_unordered"])
def test_the_unedited_code_is_proved(tmp_path, name):
    assert prove_edited(tmp_path, name, {})["status"] == "proved"


EDITS_LARGE = {
    "metric_bounded: Hamming map capped at 4": (
        "return 0 if d_in < 2 else size  # label: map-hamming",
        "return 0 if d_in < 2 else min(size, 4)  # label: map-hamming",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS_LARGE))
def test_a_map_capped_at_the_small_sizes_is_refuted(tmp_path, edit):
    old, new = EDITS_LARGE[edit]
    file = "transformations/metric_bounded/make_metric_bounded.py"
    summary = prove_edited(tmp_path, "make_metric_bounded", {file: [(old, new)]}, select="N=")
    assert summary["status"] == "counterexample", summary


@given(st.integers(1, 200), st.integers(2, 2**40))
def test_hamming_map_at_large_sizes_meets_the_alternating_pair(n, d_in):
    """Beyond the model's sizes: the real map at d_in >= 2 is at least the Hamming distance of
    the alternating pair (insert-delete distance 2), and equals n."""
    dp.enable_features("contrib")
    built = dp.t.make_metric_bounded(
        dp.vector_domain(dp.atom_domain(T="i32"), size=n), dp.insert_delete_distance()
    )
    x = [k % 2 for k in range(n)]
    x_prime = [(k + 1) % 2 for k in range(n)]
    assert dp.insert_delete_distance().distance(x, x_prime) == 2
    hamming = dp.hamming_distance().distance(built(x), built(x_prime))
    assert hamming == n and built.map(d_in) >= hamming and built.map(d_in) == n
