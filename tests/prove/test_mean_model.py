"""The make_mean model equals the code bit for bit (function and map), and a smaller map is
refuted."""

import struct
from fractions import Fraction

import numpy as np
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_of, float_sort, float_value
from certdp.prove.engine import solve
from certdp.transformations._summation.smt_model import pairwise_tree
from certdp.transformations.mean.smt_model import mean_instance, mean_map, mean_of_total


def _bits(value: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", value))[0]


@st.composite
def mean_case(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    width = 32 if T == "f32" else 64
    finite = st.floats(-1e6, 1e6, allow_nan=False, width=width)
    a, b = draw(finite), draw(finite)
    lower, upper = min(a, b), max(a, b)
    n = draw(st.integers(1, 5))
    data = draw(st.lists(st.floats(lower, upper, width=width), min_size=n, max_size=n))
    return T, (lower, upper), data, draw(st.integers(0, 6))


@given(mean_case())
def test_mean_model_is_the_code(case):
    T, (lower, upper), data, d_in = case
    cast = np.float32 if T == "f32" else float
    domain = dp.vector_domain(
        dp.atom_domain(bounds=(cast(lower), cast(upper)), T=T), size=len(data)
    )
    built = dp.t.make_mean(domain, dp.symmetric_distance())
    sort = float_sort(T)
    total = pairwise_tree([float_value(v, sort) for v in data], sort)
    model = float_of(mean_of_total(total, len(data), (lower, upper), sort))
    assert _bits(model) == _bits(float(built([cast(v) for v in data])))
    summed = dp.t.make_sum(domain, dp.symmetric_distance())
    stated = mean_map(len(data), (lower, upper), Fraction(summed.map(d_in)), sort)
    assert stated == Fraction(built.map(d_in))


def test_a_smaller_mean_map_is_refuted():
    outcome = solve(mean_instance("f8", 3, (-1.0, 1.0), map_scale=Fraction(1, 4)), 120)
    assert outcome["status"] == "counterexample", outcome


def test_the_mean_is_proved_in_f8():
    assert solve(mean_instance("f8", 3, (0.0, 2.0)), 120)["status"] == "proved"


def test_model_rounds_like_the_code_at_a_tie():
    sort = float_sort("f64")
    value = float_of(z3.fpMul(z3.RNE(), float_value(1.0, sort), float_value(0.5, sort)))
    assert value == 0.5
