"""The make_mean model equals the code bit for bit (the function, with the constants read from
the built constructor), the abstraction of its rounded product holds on the code's runs, the
real map is proved at every instance, and the code without its ulp term is refuted."""

import struct
from fractions import Fraction

import numpy as np
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_of, float_sort, float_value
from certdp.core.errors import ArithmeticOverflowError
from certdp.prove.engine import solve
from certdp.transformations._summation.smt_model import pairwise_tree
from certdp.transformations.mean.smt_model import (
    CASES,
    code_constants,
    half_ulp,
    mean_instance,
    mean_of_total,
)


def _bits(value: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", value))[0]


@st.composite
def mean_case(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    width = 32 if T == "f32" else 64
    finite = st.one_of(
        st.floats(allow_nan=False, allow_infinity=False, width=width),
        st.floats(-1e-300, 1e-300, allow_nan=False).map(
            lambda v: float(np.float32(v)) if T == "f32" else v
        ),
        st.floats(-1e6, 1e6, allow_nan=False, width=width),
        st.floats(-1e30, 1e30, allow_nan=False).map(
            lambda v: float(np.float32(v)) if T == "f32" else v
        ),
        st.sampled_from([0.0, -0.0, 1e-30, -1e-40]).map(
            lambda v: float(np.float32(v)) if T == "f32" else v
        ),
    )
    a, b = draw(finite), draw(finite)
    lower, upper = min(a, b), max(a, b)
    n = draw(st.integers(1, 5))
    data = draw(st.lists(st.floats(lower, upper, width=width), min_size=n, max_size=n))
    return T, (lower, upper), data


@given(mean_case())
def test_mean_model_is_the_code(case):
    T, (lower, upper), data = case
    dp.enable_features("contrib")
    cast = np.float32 if T == "f32" else float
    domain = dp.vector_domain(
        dp.atom_domain(bounds=(cast(lower), cast(upper)), T=T), size=len(data)
    )
    try:
        built = dp.t.make_mean(domain, dp.symmetric_distance())
    except ArithmeticOverflowError:
        return  # the code's typed refusal of bounds whose sum or range leaves the format
    constants = code_constants(built)
    sort = float_sort(T)
    summed, _ = built.components
    total = summed([cast(v) for v in data])
    assert float_of(pairwise_tree([float_value(v, sort) for v in data], sort)) == total
    model = float_of(mean_of_total(float_value(total, sort), constants, sort))
    code = float(built([cast(v) for v in data]))
    assert _bits(model) == _bits(code)
    # the abstraction the obligations use: within half an ulp of the exact clamped product
    low, high, c = constants
    exact_product = c * min(max(Fraction(total), low), high)
    assert abs(Fraction(code) - exact_product) <= half_ulp(constants, T)


def test_the_real_mean_map_is_proved_at_every_instance():
    dp.enable_features("contrib")
    for fmt, n, bounds in CASES[:4]:
        assert solve(mean_instance(fmt, n, bounds), 60)["status"] == "proved"


def test_the_mean_without_its_ulp_term_in_the_code_is_refuted(tmp_path):
    from .edited import prove_edited

    edit = {
        "transformations/mean/make_mean.py": [
            (
                "return inf_add(inf_mul(reciprocal, d_sum, T), rounding, T)",
                "return inf_mul(reciprocal, d_sum, T)",
            )
        ]
    }
    summary = prove_edited(tmp_path, "make_mean", edit)
    assert summary["status"] == "counterexample", summary
    example = summary["counterexamples"][0]["example"]
    assert {"t", "t'", "mean map", "sum map"} <= set(example)


def test_model_rounds_like_the_code_at_a_tie():
    sort = float_sort("f64")
    value = float_of(z3.fpMul(z3.RNE(), float_value(1.0, sort), float_value(0.5, sort)))
    assert value == 0.5
