"""make_cdf's SMT model against the code on random vectors, and unsound edits of the code that
``certdp prove make_cdf`` must refute (the binding obligation runs the edited Function)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_sort, float_value
from certdp.transformations.cdf.smt_model import _same, cdf_model

from .edited import prove_edited

FILE = "transformations/cdf/make_cdf.py"


@given(
    st.sampled_from(["f32", "f64"]),
    st.lists(st.floats(allow_nan=False) | st.floats(0, 10), min_size=1, max_size=4),
)
def test_model_outputs_are_the_code_outputs(TA, xs):
    dp.enable_features("contrib")
    out = dp.t.make_cdf(TA)(xs)
    sort = float_sort(TA)
    with np.errstate(over="ignore"):
        rounded = [float({"f32": np.float32, "f64": np.float64}[TA](x)) for x in xs]
    model = cdf_model([float_value(v, sort) for v in rounded], TA)
    assert all(_same(m, o, sort) for m, o in zip(model, out))
    assert len(out) == len(xs) and all(type(o) is float for o in out)


@pytest.mark.parametrize(
    "edit",
    [
        ("total = total + value", "total = total + abs(value)"),
        ("return [float(c / last) for c in cumulative]", "return [float(c) for c in cumulative]"),
    ],
)
def test_an_unsound_edit_is_refuted(tmp_path, edit):
    summary = prove_edited(tmp_path, "make_cdf", {FILE: [edit]}, select="binding")
    assert summary["status"] == "counterexample", summary
