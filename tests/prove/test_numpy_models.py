"""The SMT models of make_np_sum and make_np_clamp equal the code bit for bit on random arrays.

Evaluated with ``W = f64`` (the code computes in float64) on concrete z3 numerals, each model
must give exactly what the code computes: the row-norm estimate (one of the model's summation
trees, since the proof does not fix numpy's order) and thresholds, the column sums, and the
clamped rows.
"""

import math
import struct
from fractions import Fraction

import numpy as np
import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.contracts.smt import float_of, float_sort
from certdp.numpy._support import smt_model
from certdp.numpy._support.column_sum import column_sum
from certdp.numpy._support.row_norm_test import RowNormTest


def _bits(value: float) -> int:
    if math.isnan(value):
        return -1  # every NaN alike
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def _numeral(value: float, T: str):
    return z3.FPVal(float(value), float_sort(T))


def _evaluate(expression) -> float:
    return float_of(z3.simplify(expression))


def _values(T: str, allow_nan: bool = False, allow_infinity: bool = False):
    width = 32 if T == "f32" else 64
    special = [0.0, -0.0, 1.0, -2.5]
    if allow_infinity:
        special += [math.inf, -math.inf]
    if allow_nan:
        special.append(math.nan)
    return st.one_of(
        st.sampled_from(special),
        st.floats(allow_nan=allow_nan, allow_infinity=allow_infinity, width=width),
        st.floats(-1e3, 1e3, width=width),
    )


@st.composite
def row_case(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    k = draw(st.integers(1, 3))
    rows = draw(
        st.lists(
            st.lists(_values(T, allow_nan=True, allow_infinity=True), min_size=k, max_size=k),
            min_size=1,
            max_size=4,
        )
    )
    origin = draw(st.none() | st.lists(st.floats(-1e3, 1e3), min_size=k, max_size=k))
    norm = draw(st.sampled_from([0.0, 1.0, 2.5, 1e-300, 1e300]) | st.floats(0, 1e6))
    return T, k, rows, origin, norm, draw(st.sampled_from([1, 2]))


@settings(max_examples=60, deadline=None)
@given(row_case())
def test_row_norm_estimate_and_thresholds_are_the_code(case):
    T, k, rows, origin, norm, p = case
    dtype = np.float32 if T == "f32" else np.float64
    block = np.array(rows, dtype=dtype)
    origin_array = None if origin is None else np.array(origin, dtype=np.float64)
    test = RowNormTest(norm, p, origin_array)
    estimates, _ = test.estimate(block)
    model_origin = None if test.origin is None else [_numeral(o, "f64") for o in test.origin]
    for i, row in enumerate(block.tolist()):
        candidates = smt_model.estimates([_numeral(v, T) for v in row], model_origin, p, "f64")
        values = {_bits(_evaluate(c)) for c in candidates}
        assert _bits(float(estimates[i])) in values
    accept_below, reject_above = smt_model.thresholds(norm, p, k, "f64")
    assert (_evaluate(accept_below), _evaluate(reject_above)) == test.thresholds(k)


@st.composite
def sum_case(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    k = draw(st.integers(1, 3))
    n = draw(st.integers(1, 12))
    rows = draw(st.lists(st.lists(_values(T), min_size=k, max_size=k), min_size=n, max_size=n))
    return T, rows


@settings(max_examples=60, deadline=None)
@given(sum_case())
def test_column_sum_model_is_the_code(case):
    T, rows = case
    dtype = np.float32 if T == "f32" else np.float64
    with np.errstate(over="ignore", invalid="ignore"):
        code = column_sum(np.array(rows, dtype=dtype), dtype).tolist()
    model = smt_model.column_sum([[_numeral(v, T) for v in row] for row in rows], "f64", T)
    assert [_bits(_evaluate(v)) for v in model] == [_bits(float(v)) for v in code]


@st.composite
def clamp_case(draw):
    T = draw(st.sampled_from(["f32", "f64"]))
    k = draw(st.integers(1, 2))
    rows = draw(
        st.lists(
            st.lists(_values(T, allow_nan=True, allow_infinity=True), min_size=k, max_size=k),
            min_size=1,
            max_size=3,
        )
    )
    origin = draw(st.lists(st.sampled_from([0.0, 0.25, -1.0, 3.5, 1e30]), min_size=k, max_size=k))
    radius = draw(st.sampled_from([0.5, 1.0, 2.5, 1e-30, 1e20]))
    return T, rows, origin, radius, draw(st.sampled_from([1, 2]))


@settings(max_examples=40, deadline=None)
@given(clamp_case())
def test_clamp_row_model_is_the_code(case):
    T, rows, origin, radius, p = case
    dtype = np.float32 if T == "f32" else np.float64
    origin = [float(dtype(o)) for o in origin]
    k = len(origin)
    domain = dp.numpy.array2_domain(T=T, num_columns=k)
    built = dp.numpy.make_np_clamp(domain, dp.symmetric_distance(), radius, p, origin=origin)
    code = built(np.array(rows, dtype=dtype))
    for i, row in enumerate(rows):
        image = smt_model.clamp_row([_numeral(v, T) for v in row], origin, radius, p, "f64", T)
        assert [_bits(_evaluate(v)) for v in image] == [_bits(float(v)) for v in code[i]]


def test_exact_norm_test_decides_the_ball():
    """The exact predicate of the models agrees with exact rational arithmetic at the edge."""
    origin = [_numeral(0.5, "f64"), _numeral(-1.0, "f64")]
    for row, radius, p, expected in [
        ((3.5, 3.0), 7.0, 1, True),
        ((3.5, 3.0), 6.5, 1, False),
        ((3.5, 3.0), 5.0, 2, True),
        ((3.5, 3.0), 4.999999999999999, 2, False),
        ((math.inf, 0.0), 1e300, 1, False),
    ]:
        within = smt_model.within_exact([_numeral(v, "f64") for v in row], origin, radius, p, "f64")
        assert z3.is_true(z3.simplify(within)) is expected
        if all(math.isfinite(v) for v in row):
            offsets = [Fraction(row[0]) - Fraction(0.5), Fraction(row[1]) + 1]
            total = sum(abs(d) ** p for d in offsets)
            assert (total <= Fraction(radius) ** p) is expected


@pytest.mark.parametrize("name", ["make_np_sum", "make_np_clamp"])
def test_every_obligation_says_what_it_covers(name):
    obligations = smt_model.obligations([name])
    assert obligations
    for obligation in obligations:
        assert obligation.constructor == name
        assert "for all" in obligation.claim or "every" in obligation.claim


def test_thresholds_without_the_rounding_allowance_are_refuted(monkeypatch):
    """The row-norm obligation is not vacuous: comparing the float estimate with R^p itself
    (no gamma) accepts a row outside the ball, and the solver finds one."""
    from certdp.prove.engine import solve

    def naive(radius, p, k, W):
        exact = Fraction(radius) ** p
        return smt_model._rounded(exact, W, z3.RNE()), smt_model._rounded(exact, W, z3.RNE())

    monkeypatch.setattr(smt_model, "thresholds", naive)
    obligation = smt_model._row_test_obligation("make_np_sum", "f8", 1, 2, "3/2")
    assert solve(obligation, 120)["status"] == "counterexample"


def test_sum_map_without_the_rounding_term_is_refuted(monkeypatch):
    """The column-sum obligation is not vacuous: the idealized map (no 2 rho) is refuted by a
    reordering of the same rows whose float sums differ."""
    import importlib

    from certdp.prove.engine import solve

    make_np_sum = importlib.import_module("certdp.numpy.np_sum.make_np_sum")

    monkeypatch.setattr(
        make_np_sum, "known_size_bound", lambda d_in, radius, rho: (d_in // 2) * 2 * radius
    )
    obligation = smt_model._sum_instance("f8", 1, 1, 3, "3/2", ["-3/4"], 1)
    assert solve(obligation, 120)["status"] == "counterexample"
