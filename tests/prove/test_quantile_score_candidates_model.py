"""The make_quantile_score_candidates model equals the code on concrete data, and the prove
engine refutes an edited copy whose map is too small."""

import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.transformations.quantile_score_candidates.make_quantile_score_candidates import (
    score_constants,
)
from certdp.transformations.quantile_score_candidates.smt_model import (
    ALPHAS,
    WIDTH,
    _counts,
    score,
)

from .edited import prove_edited

FILE = "transformations/quantile_score_candidates/make_quantile_score_candidates.py"


@given(
    st.lists(st.integers(0, 3), max_size=8),
    st.sampled_from(ALPHAS),
    st.sampled_from([None, "len"]),
)
def test_model_scores_are_the_code_scores(data, alpha, sized):
    dp.enable_features("contrib")
    size = len(data) if sized and data else None
    built = dp.t.make_quantile_score_candidates(
        dp.vector_domain(dp.atom_domain(T="u8"), size=size), dp.symmetric_distance(), [1, 2], alpha
    )
    num, den, limit = score_constants(size, alpha)
    records = [z3.BitVecVal(v, 2) for v in data]
    model = [z3.simplify(score(*_counts(records, c), num, den, limit)).as_long() for c in (1, 2)]
    assert model == built(data)


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.sampled_from(ALPHAS))
def test_model_truncates_large_counts_as_the_code(lt, gt, alpha):
    num, den, limit = score_constants(None, alpha)
    expected = abs((den - num) * min(lt, limit) - num * min(gt, limit))
    value = score(z3.BitVecVal(lt, WIDTH), z3.BitVecVal(gt, WIDTH), num, den, limit)
    assert z3.simplify(value).as_long() == expected
    # the counts obligations' exact-integer form of the same score
    exact = score(z3.IntVal(lt), z3.IntVal(gt), num, den, limit)
    assert z3.simplify(exact).as_long() == expected


def test_a_map_without_the_larger_weight_is_refuted(tmp_path):
    edit = (
        "d_out = d_in * max(num, den - num)  # label: map-unsized",
        "d_out = d_in * min(num, den - num)  # label: map-unsized",
    )
    summary = prove_edited(
        tmp_path, "make_quantile_score_candidates", {FILE: [edit]}, select="alpha=0.3, d_in=1"
    )
    assert summary["status"] == "counterexample", summary


def test_the_exact_integer_counts_obligations_refute_a_halved_sized_map(tmp_path):
    edit = (
        "d_out = (d_in // 2) * den  # label: map-sized",
        "d_out = (d_in // 2) * (den // 2)  # label: map-sized",
    )
    summary = prove_edited(
        tmp_path,
        "make_quantile_score_candidates",
        {FILE: [edit]},
        select="counts < 2^64, size 1000000, alpha=0.5, d_in=3",
    )
    assert summary["status"] == "counterexample", summary


def test_a_halved_sized_map_is_refuted(tmp_path):
    edit = (
        "d_out = (d_in // 2) * den  # label: map-sized",
        "d_out = (d_in // 2) * (den // 2)  # label: map-sized",
    )
    summary = prove_edited(
        tmp_path, "make_quantile_score_candidates", {FILE: [edit]}, select="size 3, alpha=0.5"
    )
    assert summary["status"] == "counterexample", summary
