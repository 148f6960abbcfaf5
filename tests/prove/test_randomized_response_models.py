"""The SMT models of the randomized-response mechanisms: proved on the real code, and unsound
edits of the code (a halved loss, a loss without its k - 1, a bit-vector loss charged for half
the differing bits, the last bit left out of the loop as in OpenDP #2707) are refuted.  The
last four tests are the referee's (session 8): edits of the release itself, which the models
see because they run the real function under scripted draws."""

from __future__ import annotations

import pytest

import certdp.prelude as dp

from .edited import prove_edited

BOOL = "measurements/randomized_response_bool/make_randomized_response_bool.py"
CATEGORICAL = "measurements/randomized_response/make_randomized_response.py"
BITVEC = "measurements/randomized_response_bitvec/make_randomized_response_bitvec.py"


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")  # not vetted in this branch yet


# `certdp prove` of the three names on an unedited copy of the tree: the full re-proof is
# `certdp prove`'s; `make test` checks that its committed result is current and that a stale
# one fails `certdp audit --strict` (test_stale_result_fails_the_audit.py)
@pytest.mark.slow
def test_the_unedited_code_is_proved(tmp_path):
    for name in (
        "make_randomized_response_bool",
        "make_randomized_response",
        "make_randomized_response_bitvec",
    ):
        summary = prove_edited(tmp_path / name, name, {})
        assert summary["status"] == "proved", (name, summary)


def test_a_halved_bool_loss_is_refuted(tmp_path):
    edit = (
        "return inf_scaled_abs_ln(1, keep / (1 - keep))",
        "return inf_scaled_abs_ln(1, keep / (1 - keep)) / 2",
    )
    summary = prove_edited(tmp_path, "make_randomized_response_bool", {BOOL: [edit]})
    assert summary["status"] == "counterexample", summary


def test_a_categorical_loss_without_k_minus_one_is_refuted(tmp_path):
    edit = (
        "inf_scaled_abs_ln(1, keep * (k - 1) / (1 - keep))",
        "inf_scaled_abs_ln(1, keep / (1 - keep))",
    )
    summary = prove_edited(
        tmp_path, "make_randomized_response", {CATEGORICAL: [edit]}, select="the map"
    )
    assert summary["status"] == "counterexample", summary


def test_a_bitvec_loss_for_half_the_bits_is_refuted(tmp_path):
    edit = ("inf_scaled_abs_ln(2 * weight,", "inf_scaled_abs_ln(weight,")
    summary = prove_edited(
        tmp_path, "make_randomized_response_bitvec", {BITVEC: [edit]}, select="the map"
    )
    assert summary["status"] == "counterexample", summary


def test_the_last_bit_left_unprotected_is_refuted(tmp_path):
    edit = ("bits = input_domain.size  #", "bits = input_domain.size - 1  #")
    summary = prove_edited(
        tmp_path, "make_randomized_response_bitvec", {BITVEC: [edit]}, select="every position"
    )
    assert summary["status"] == "counterexample", summary


def test_a_wrong_flip_probability_is_refuted(tmp_path):
    edit = ("flip = Fraction(f) / 2  #", "flip = Fraction(f) / 3  #")
    summary = prove_edited(
        tmp_path, "make_randomized_response_bitvec", {BITVEC: [edit]}, select="every position"
    )
    assert summary["status"] == "counterexample", summary


# -- the referee's edits of the release (session 8) ---------------------------------------------
def test_bitvec_bits_model_refutes_a_loop_that_skips_the_last_bit(tmp_path):
    """``range(bits - 1)`` leaves the last bit unrandomized (OpenDP #2707): two members that
    differ only there have disjoint output supports."""
    edit = ("for position in range(bits):", "for position in range(bits - 1):")
    summary = prove_edited(
        tmp_path, "make_randomized_response_bitvec", {BITVEC: [edit]}, select="every position"
    )
    assert summary["status"] == "counterexample", summary


def test_bitvec_bits_model_refutes_a_mask_that_misses_a_position(tmp_path):
    """Drawn bits go to ``position // 2 * 2``: odd positions are never flipped."""
    edit = ("mask |= 1 << position", "mask |= 1 << (position // 2 * 2)")
    summary = prove_edited(
        tmp_path, "make_randomized_response_bitvec", {BITVEC: [edit]}, select="every position"
    )
    assert summary["status"] == "counterexample", summary


def test_categorical_model_refutes_a_release_that_can_return_the_true_category(tmp_path):
    """``values[j]`` without skipping the input: ``c_0`` never releases ``c_{k-1}``, while
    ``c_{k-1}`` releases it with probability ``prob`` (infinite loss)."""
    edit = ("return values[j if j < i else j + 1]", "return values[j]")
    summary = prove_edited(tmp_path, "make_randomized_response", {CATEGORICAL: [edit]})
    assert summary["status"] == "counterexample", summary


def test_bool_model_refutes_a_release_that_never_negates(tmp_path):
    """``arg if truthful else arg`` publishes the input in the clear."""
    edit = ("return arg if truthful else not arg", "return arg if truthful else arg")
    summary = prove_edited(tmp_path, "make_randomized_response_bool", {BOOL: [edit]})
    assert summary["status"] == "counterexample", summary


def test_a_non_uniform_release_outside_the_categories_is_refuted(tmp_path):
    """A value outside the categories released among the first ``k - 1`` only: the last
    category is never released, so the law is not uniform."""
    edit = ("return values[source.below(k)]", "return values[source.below(k - 1)]")
    summary = prove_edited(tmp_path, "make_randomized_response", {CATEGORICAL: [edit]})
    assert summary["status"] == "counterexample", summary
