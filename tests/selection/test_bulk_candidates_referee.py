"""Regressions from the referee of the bulk candidate paths (#22 performance): the bulk
paths of ``make_quantile_score_candidates`` and ``make_private_quantile`` give the same values,
types and refusals as the per-entry paths on hostile lists, equal OpenDP 0.16's scores on edge
candidates, and read the caller's list once (a list changed after the snapshot changes nothing).
"""

from __future__ import annotations

import importlib
import math
import sys
import threading
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import DPError
from certdp.core.types import carrier

qsc = importlib.import_module(
    "certdp.transformations.quantile_score_candidates.make_quantile_score_candidates"
)
mpq = importlib.import_module("certdp.measurements.private_quantile.make_private_quantile")

dp.enable_features("contrib")


class _List(list):
    pass


class _Float(float):
    pass


class _Int(int):
    pass


HOSTILE = [
    [],
    [0.0],
    [-0.0],
    [-0.0, 0.0],
    [0.0, -0.0],
    [1.0, 1.0],
    [2.0, 1.0],
    [math.nan],
    [1.0, math.nan],
    [-math.inf, 0.0, math.inf],
    [5e-324, 1e-323],
    [-5e-324, 0.0, 5e-324],
    [1, 2],
    [1, 2.0],
    [1.0, 2],
    [True, 2],
    [False, True],
    [2**53, 2**53 + 1],
    [2**63 - 1],
    [2**63],
    [2**64 - 1],
    [2**64],
    [-(2**63)],
    [-(2**63) - 1],
    [2**53 + 1.0],
    [np.float64(1.0), 2.0],
    [np.float32(1.0), 2.0],
    [np.int64(1), 2],
    [np.uint64(2**64 - 1)],
    [np.longdouble(1.0), 2.0],
    [np.float16(1.0)],
    [np.bool_(True)],
    [np.int8(-1), 0],
    [_Float(1.0), 2.0],
    [_Int(1), 2],
    _List([1.0, 2.0]),
    (1.0, 2.0),
    (3, 1, 2),
    [3.0, 1.0, 2.0],
    np.array([1.0, 2.0]),
    np.array([2.0, 1.0]),
    np.array([1, 2], dtype=np.int32),
    range(3),
    [Fraction(1, 2), 1.0],
    [Decimal("0.5"), 1.0],
    ["a", "b"],
    [None],
    [1.0, None],
    [1e308, math.inf],
    [3.4028234663852886e38, 3.5e38],
    [16777217.0],
    [255, 256],
    [[1.0]],
    [complex(1, 0)],
    [1, 1],
    [-1, 0],
    [1, 1.0],
    [0.1 * i for i in range(10**5)],
    list(range(-(10**5), 10**5, 3)),
    [float(i) for i in range(10**5)][::-1],
]
try:
    import pandas

    HOSTILE += [pandas.Series([1.0, 2.0]), pandas.Series([2.0, 1.0]), pandas.Series([1, 2])]
except ImportError:  # pandas is optional
    pass
TYPES = ["f64", "f32", "i8", "i32", "i64", "u8", "u32", "u64", "usize", "i128", "u128"]


def _outcome(call):
    try:
        result = call()
    except DPError as error:
        return ("refused", type(error).__name__, error.parameter, str(error))
    except Exception as error:  # an untyped exception is itself a finding
        return ("untyped", type(error).__name__, str(error))
    return ("ok", tuple((type(value), repr(value)) for value in result))


@pytest.mark.parametrize("T", TYPES)
def test_guard_bulk_candidates_equal_per_entry(T, monkeypatch):
    """_candidates with the bulk path equals _candidates with the bulk test forced false
    (values, Python types incl. -0.0, refusal class, parameter and message) on hostile lists."""
    t = carrier(T)
    fast = [_outcome(lambda c=c: qsc._candidates(c, t)) for c in HOSTILE]
    monkeypatch.setattr(qsc, "_plain_values", lambda candidates, T: False)
    slow = [_outcome(lambda c=c: qsc._candidates(c, t)) for c in HOSTILE]
    assert fast == slow
    assert all(outcome[0] != "untyped" for outcome in fast)


@pytest.mark.parametrize("T", TYPES)
def test_guard_sorted_candidates_equal_per_entry(T, monkeypatch):
    """_sorted_candidates (private quantile) with and without the sorted-plain branch."""
    t = carrier(T)
    fast = [_outcome(lambda c=c: mpq._sorted_candidates(c, t)) for c in HOSTILE]
    monkeypatch.setattr(mpq, "_plain_values", lambda candidates, T: False)
    monkeypatch.setattr(qsc, "_plain_values", lambda candidates, T: False)
    slow = [_outcome(lambda c=c: mpq._sorted_candidates(c, t)) for c in HOSTILE]
    assert fast == slow
    assert all(outcome[0] != "untyped" for outcome in fast)


def _scores(T, candidates, data, alpha, size=None):
    atom = dp.atom_domain(T=T, nan=False) if T.startswith("f") else dp.atom_domain(T=T)
    domain = dp.vector_domain(atom, size=size)
    return dp.t.make_quantile_score_candidates(domain, dp.symmetric_distance(), candidates, alpha)(
        data
    )


def test_guard_scores_equal_opendp_on_edge_candidates():
    """Scores through the bulk path equal OpenDP 0.16's (literals computed with
    opendp.prelude.t.make_quantile_score_candidates on the same arguments, 2026-11-27)."""
    subnormals = [5e-324 * i for i in range(-5, 6)]
    assert _scores("f64", subnormals, [0.0, -0.0, 5e-324, -5e-324, 1e-320], 0.5)[:3] == [5, 5, 5]
    assert _scores("f64", [-math.inf, -0.0, math.inf], [0.0, -0.0, 1.0], 0.3) == [9000, 3000, 21000]
    assert _scores("f64", [-0.0], [0.0, -0.0, 1.0], 0.3, size=3) == [5404319552844595]
    assert _scores("u64", [0, 2**63, 2**64 - 1], [2**64 - 1, 0, 2**63], 0.25) == [2, 2, 6]
    assert _scores(
        "i64", [-(2**63), 2**53 + 1, 2**63 - 1], [2**53, 2**53 + 1, 2**53 + 2], 0.75
    ) == [9, 2, 3]


def test_guard_public_call_snapshot_under_thread_mutation():
    """Another thread mutating the caller's list (appending NaN, a str, reversing) during
    make_quantile_score_candidates / make_private_quantile: every call either refuses with a
    DPError or builds on strictly increasing non-NaN candidates (the boundary copies the list)."""
    shared = [float(i) for i in range(2000)]
    stop = threading.Event()

    def writer():
        while not stop.is_set():
            shared.append(math.nan)
            shared.append("x")
            shared.reverse()
            shared.reverse()
            del shared[-2:]

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    thread = threading.Thread(target=writer)
    thread.start()
    domain = dp.vector_domain(dp.atom_domain(T="f64", nan=False))
    try:
        for _ in range(40):
            try:
                m = dp.t.make_quantile_score_candidates(
                    domain, dp.symmetric_distance(), shared, 0.5
                )
                assert len(m([0.0, 1.0])) in range(1999, 2003)
            except DPError:
                pass
            try:
                dp.m.make_private_quantile(
                    domain, dp.symmetric_distance(), dp.max_divergence(), shared, 0.5, 1.0
                )
            except DPError:
                pass
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(old)


def test_sorted_candidates_reads_the_list_once():
    """_sorted_candidates tests and sorts one snapshot of the list: a change to the caller's
    list made after the snapshot (simulated with a line tracer at the sort) changes nothing."""
    t = carrier("f64")
    shared = [3.0, 1.0, 2.0]
    code = mpq._sorted_candidates.__code__
    lines = mpq.__loader__.get_source(mpq.__name__).splitlines()
    target = next(
        number
        for number, line in enumerate(lines, 1)
        if number > code.co_firstlineno and "label: sorted-plain-copy" in line
    )

    def tracer(frame, event, arg):
        if frame.f_code is not code:
            return None

        def local(frame, event, arg):
            if event == "line" and frame.f_lineno == target:
                shared.append("x")
            return local

        return local

    sys.settrace(tracer)
    try:
        result = mpq._sorted_candidates(shared, t)
    finally:
        sys.settrace(None)
    assert shared[-1] == "x"  # the tracer did change the list at the sort
    assert result == (1.0, 2.0, 3.0)
    assert all(type(value) is float for value in result)
