"""The make_sum_of_squared_deviations model: the code's outputs lie in the enclosure the model
assumes (exact rationals, on concrete data), every instance is proved, and an edited copy of the
code that leaves out the rounding of the mean's division (OpenDP #2923's omission) is refuted."""

from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.prove.engine import solve
from certdp.transformations.sum_of_squared_deviations.smt_model import (
    CASES,
    built_ssd,
    enclosure,
    ssd_instance,
)

from .edited import prove_edited


@st.composite
def ssd_case(draw):
    fmt, S, n, (lower, upper) = draw(st.sampled_from(CASES))
    n = draw(st.integers(1, 40)) if draw(st.booleans()) else n
    dtype = np.float32 if fmt == "f32" else np.float64
    width = 32 if fmt == "f32" else 64
    values = st.floats(lower, upper, width=width).map(lambda v: float(dtype(v)))
    data = draw(st.lists(values, min_size=n, max_size=n))
    return fmt, S, n, (lower, upper), data


@given(ssd_case())
def test_the_code_stays_in_the_models_enclosure(case):
    fmt, S, n, bounds, data = case
    dp.enable_features("contrib")
    built = built_ssd(fmt, S, n, bounds)
    A, B = enclosure(fmt, S, n, *bounds)
    exact = [Fraction(v) for v in data]
    mean = sum(exact) / n
    G = sum((v - mean) ** 2 for v in exact)
    r = Fraction(built(data))
    assert -A <= r - G <= A + B


def test_every_instance_is_proved():
    dp.enable_features("contrib")
    for case in CASES:
        outcome = solve(ssd_instance(*case), 60)
        assert outcome["status"] == "proved", outcome


def test_leaving_out_the_rounding_of_the_mean_is_refuted(tmp_path):
    edits = {
        "transformations/sum_of_squared_deviations/make_sum_of_squared_deviations.py": [
            (
                "sum_mean_error, inf_add(inf_mul(unit, inf_add(magnitude, sum_mean_error, T), T), tiny, T), T",
                "sum_mean_error, 0.0, T",
            ),
            ("inf_mul(n, inf_mul(mean_error, mean_error, T), T)", "0.0"),
        ]
    }
    summary = prove_edited(
        tmp_path,
        "make_sum_of_squared_deviations",
        edits,
        select="f64 Pairwise size=3 bounds=(1125899906842624.0",
    )
    assert summary["status"] == "counterexample", summary
    example = summary["counterexamples"][0]["example"]
    assert {"d_in", "map", "r", "r'"} <= set(example)


def test_halving_the_rounding_of_the_squares_is_refuted_on_the_default_instances(tmp_path):
    """``n e_sq`` in place of ``2 n e_sq`` (each of the two outputs carries ``n e_sq``): refuted
    by the model's default instance set (no instance selected)."""
    edits = {
        "transformations/sum_of_squared_deviations/make_sum_of_squared_deviations.py": [
            ("inf_mul(inf_mul(2.0, n, T), square_error, T)", "inf_mul(n, square_error, T)")
        ]
    }
    summary = prove_edited(tmp_path, "make_sum_of_squared_deviations", edits)
    assert summary["status"] == "counterexample", summary


def test_the_contract_refutes_halving_the_rounding_of_the_squares():
    """The contract's closed form has the term ``2 n (U - L)^2 ((1 + u)^3 - 1)``: the edited map
    falls below it at bounds (0, 10), n = 3, d_in = 0."""
    from fractions import Fraction

    from certdp.transformations.sum_of_squared_deviations import contract

    dp.enable_features("contrib")
    built = built_ssd("f64", "Pairwise", 3, (0.0, 10.0))
    values = contract.parameters(
        type("A", (), {"input_domain": built.input_domain, "S": "Pairwise<T>"})(), built
    )
    values[contract.D_IN] = 0
    bound = Fraction(str(contract.BOUND.subs(values).evalf(40)))
    u = Fraction(1, 2**53)
    square_error = Fraction(100) * ((1 + u) ** 3 - 1)
    assert Fraction(built.map(0)) >= bound
    assert Fraction(built.map(0)) - 3 * square_error < bound
