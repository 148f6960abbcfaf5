"""The SMT model of make_np_sscp: its G(X) is the code's sscp_matrix bit for bit on random
arrays; the engine proves the obligations (slow: `certdp prove`'s job), and refutes a smaller map, an unsound edit of the
code's map and a model whose diagonal can go negative."""

import math

import numpy as np
import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import certdp.prelude as dp
from certdp.contracts.smt import float_of, float_sort, float_value
from certdp.numpy.np_sscp import smt_model
from certdp.numpy.sscp_domain import sscp_matrix
from certdp.prove.engine import solve

from .edited import prove_edited

FILE = "numpy/np_sscp/make_np_sscp.py"

_arrays = st.sampled_from([np.float32, np.float64]).flatmap(
    lambda dtype: hnp.arrays(
        dtype,
        st.tuples(st.integers(0, 4), st.integers(0, 3)),
        elements=hnp.from_dtype(np.dtype(dtype), allow_nan=False),
    )
)


@given(_arrays)
def test_model_is_the_code(x):
    T = "f32" if x.dtype == np.float32 else "f64"
    sort = float_sort(T)
    rows = [[float_value(float(v), sort) for v in row] for row in x]
    if not rows:  # the model reads k from the rows; an empty array has the zero matrix
        assert not sscp_matrix(x).any()
        return
    model = smt_model.gram_model(rows, sort)
    code = sscp_matrix(x)
    for i in range(x.shape[1]):
        for j in range(x.shape[1]):
            expected, got = float_of(model[i][j]), float(code[i, j])
            if math.isnan(expected):
                assert math.isnan(got)
            else:
                assert got == expected and math.copysign(1, got) == math.copysign(1, expected)


# every obligation of make_np_sscp: the full re-proof is `certdp prove`'s; `make test` checks that its committed
# result is current and proved (test_prove.py) and that a stale one fails `certdp audit
# --strict` (test_stale_result_fails_the_audit.py)
@pytest.mark.slow
def test_the_obligations_are_proved():
    dp.enable_features("contrib")
    for obligation in smt_model.obligations():
        assert solve(obligation, 120)["status"] == "proved", obligation.claim


def test_a_smaller_stated_map_is_refuted():
    dp.enable_features("contrib")
    wrong = smt_model.stability_instance("f64", 2, 3, None, 2, map_shift=-1)
    assert solve(wrong, 60)["status"] == "counterexample"


def test_a_model_with_a_negative_diagonal_is_refuted(monkeypatch):
    dp.enable_features("contrib")
    exact = smt_model.gram_model

    def wrong(rows, sort):  # subtracts the last row's products instead of adding them
        total = exact(rows[:-1], sort)
        last = rows[-1]
        return [
            [z3.fpSub(z3.RNE(), total[i][j], z3.fpMul(z3.RNE(), last[i], last[j])) for j in range(len(last))]
            for i in range(len(last))
        ]  # fmt: skip

    monkeypatch.setattr(smt_model, "gram_model", wrong)
    assert solve(smt_model.domain_instance("f32", 2, 2), 60)["status"] == "counterexample"


def test_half_the_map_in_the_code_is_refuted(tmp_path):
    edit = ("return d_in  # label: stability-map", "return d_in // 2  # label: stability-map")
    summary = prove_edited(tmp_path, "make_np_sscp", {FILE: [edit]}, select="stability")
    assert summary["status"] == "counterexample", summary


def test_an_output_domain_of_the_wrong_dtype_is_refuted(tmp_path):
    """An f64 output domain for f32 data refuses every output of an f32 instance: unsound."""
    edit = ("T=input_domain.T,", 'T="f64",')
    summary = prove_edited(tmp_path, "make_np_sscp", {FILE: [edit]}, select="output domain")
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved(tmp_path):
    summary = prove_edited(tmp_path, "make_np_sscp", {}, select="")
    assert summary["status"] == "proved", summary
