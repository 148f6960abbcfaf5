"""The make_lipschitz_float_mul model equals the code on concrete inputs, its error bound holds
on them, and the prove engine refutes an edited copy whose map drops the ulp(w) term."""

from fractions import Fraction

import numpy as np
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_of, float_sort, float_value
from certdp.transformations.lipschitz_float_mul.smt_model import (
    CASES,
    _bounds_of,
    _constant_of,
    error_bound,
    product_model,
)

from .edited import prove_edited

FILE = "transformations/lipschitz_float_mul/make_lipschitz_float_mul.py"


@given(
    st.sampled_from(["f32", "f64"]),
    st.sampled_from(CASES),
    st.floats(allow_nan=False, width=32) | st.floats(allow_nan=False),
)
def test_model_outputs_are_the_code_outputs(T, case, value):
    dp.enable_features("contrib")
    constant, bounds = case
    built = dp.t.make_lipschitz_float_mul(
        dp.atom_domain(T=T, nan=False), dp.absolute_distance(T=T), constant, bounds
    )
    with np.errstate(over="ignore"):  # a binary64 value beyond f32's range becomes infinite
        x = float(np.float32(value)) if T == "f32" else value
    lower, upper = _bounds_of(built)
    c = _constant_of(built)
    sort = float_sort(T)
    model = product_model(
        float_value(x, sort), float_value(c, sort), float_value(lower, sort),
        float_value(upper, sort), T,
    )  # fmt: skip
    code = built(x)
    assert float_of(z3.simplify(model)) == code
    clamped = min(max(x, lower), upper)
    assert abs(Fraction(code) - Fraction(c) * Fraction(clamped)) <= error_bound(T, lower, upper, c)


def test_a_map_without_the_ulp_term_is_refuted(tmp_path):
    edit = (
        "return inf_add(scaled, spacing, T.name)  # label: map-spacing",
        "return scaled  # label: map-spacing",
    )
    summary = prove_edited(
        tmp_path, "make_lipschitz_float_mul", {FILE: [edit]}, select="f64 constant=0.1 bounds"
    )
    assert summary["status"] == "counterexample", summary
