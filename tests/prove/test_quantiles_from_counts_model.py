"""make_quantiles_from_counts's SMT model against the code on random float counts, and unsound
edits of the code that ``certdp prove make_quantiles_from_counts`` must refute (its binding
obligation runs the edited Function on the probes)."""

import math

import numpy as np
import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_sort, float_value
from certdp.transformations.quantiles_from_counts.smt_model import ALPHAS, EDGES, quantiles_model

from .edited import prove_edited

FILE = "transformations/quantiles_from_counts/make_quantiles_from_counts.py"


@given(
    st.sampled_from(["f32", "f64"]),
    st.sampled_from(["linear", "nearest"]),
    st.lists(st.floats(0, 1e6), min_size=3, max_size=3),
)
def test_model_outputs_are_the_code_outputs(F, interpolation, counts):
    dp.enable_features("contrib")
    out = dp.t.make_quantiles_from_counts(EDGES, ALPHAS, interpolation, TA=F, F=F)(counts)
    sort = float_sort(F)
    G = {"f32": np.float32, "f64": np.float64}[F]
    model = quantiles_model(
        [float_value(float(G(c)), sort) for c in counts], EDGES, ALPHAS, interpolation, F
    )
    for m, o in zip(model, out, strict=True):
        value = z3.simplify(m)
        if math.isnan(o):
            assert z3.is_true(z3.simplify(z3.fpIsNaN(value)))
        else:
            assert z3.is_true(z3.simplify(z3.fpEQ(value, float_value(o, sort))))


@pytest.mark.parametrize(
    "edit",
    [
        ("int(alpha - left > right - alpha)", "int(alpha - left >= right - alpha)"),
        ("t = (alpha - left) / (right - left)", "t = (alpha - left) / right"),
    ],
)
def test_an_unsound_edit_is_refuted(tmp_path, edit):
    summary = prove_edited(tmp_path, "make_quantiles_from_counts", {FILE: [edit]}, select="binding")
    assert summary["status"] == "counterexample", summary
