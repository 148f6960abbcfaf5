"""The SMT model of make_np_count is the code on random shapes; the engine proves it and
refutes an unsound edit of the code's map."""

import numpy as np
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.numpy.np_count.smt_model import LENGTH_BITS, count_model, instance
from certdp.prove.engine import solve

from .edited import prove_edited

I32_MAX = (1 << 31) - 1
FILE = "numpy/np_count/make_np_count.py"


@given(st.one_of(st.integers(0, 10), st.integers(0, 1 << 56)))
def test_model_is_the_code(n):
    dp.enable_features("contrib")
    t = dp.numpy.make_np_count(dp.numpy.array2_domain(T="f64"), dp.symmetric_distance())
    code = t(np.zeros((n, 0)))
    model = z3.simplify(count_model(z3.BitVecVal(n, LENGTH_BITS), I32_MAX)).as_long()
    assert code == model


def test_a_smaller_stated_map_is_refuted():
    dp.enable_features("contrib")
    assert solve(instance(2, map_shift=-1), 60)["status"] == "counterexample"
    assert solve(instance(2), 60)["status"] == "proved"


def test_half_the_map_in_the_code_is_refuted(tmp_path):
    edit = ("return d_in  # label: map-unknown", "return d_in // 2  # label: map-unknown")
    summary = prove_edited(tmp_path, "make_np_count", {FILE: [edit]}, select="unknown size")
    assert summary["status"] == "counterexample", summary


def test_a_zero_map_for_unknown_sizes_is_refuted(tmp_path):
    edit = ("if size is not None:\n            return 0", "if True:\n            return 0")
    summary = prove_edited(tmp_path, "make_np_count", {FILE: [edit]}, select="unknown size")
    assert summary["status"] == "counterexample", summary


def test_the_unedited_code_is_proved(tmp_path):
    summary = prove_edited(tmp_path, "make_np_count", {}, select="unknown size")
    assert summary["status"] == "proved", summary
