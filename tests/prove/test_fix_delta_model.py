"""The SMT model of make_fix_delta is the code's arithmetic bit for bit, and its checks refute
deliberately wrong steps."""

from __future__ import annotations

import math

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.combinators.fix_delta import smt_model
from certdp.contracts.smt import float_of
from certdp.contracts.smt_code import stub_measurement
from certdp.core.measures import PrivacyProfile
from certdp.prove.solver import solve

F64 = smt_model.F64


def _replay(curve, delta):
    """Run the real make_fix_delta's map over an inner measurement whose profile is ``curve``,
    recording every point the curve is read at; the map's own re-check of a finite answer (its
    last read) is checked and left out, so the points are the bisection's."""
    dp.enable_features("contrib")
    points = []

    def recording(epsilon):
        points.append(epsilon)
        return curve(epsilon)

    inner = stub_measurement(PrivacyProfile(recording), dp.smoothed_max_divergence())
    answer, kept = dp.c.make_fix_delta(inner, delta).map(1)
    assert kept == delta
    if not math.isinf(answer) and delta != 1:
        assert points.pop() == answer  # the re-check reads the curve at the answer
    return points, answer


@given(
    rate=st.floats(min_value=1e-6, max_value=1e3),
    delta=st.floats(min_value=1e-300, max_value=0.999),
)
def test_the_model_steps_are_the_code_steps_bit_for_bit(rate, delta):
    def curve(epsilon):
        return math.exp(-rate * epsilon) if epsilon < math.inf else 0.0

    points, answer = _replay(curve, delta)
    # growth: 2, then each point the square of the one before while the curve is above delta
    hi = points[0]
    assert hi == 2.0
    index = 1
    while curve(hi) > delta:
        hi = float_of(smt_model.grown(z3.FPVal(hi, F64)))
        if math.isinf(hi):
            assert answer == math.inf
            return
        assert points[index] == hi
        index += 1
    lo = 0.0
    for point in points[index:-1]:  # the last read is the answer's test of lo
        mid = float_of(smt_model.midpoint(z3.FPVal(lo, F64), z3.FPVal(hi, F64)))
        assert mid == point
        if curve(mid) > delta:
            lo = mid
        else:
            hi = mid
    assert answer in (lo, hi) and 0.0 <= answer
    assert bool(z3.is_true(z3.simplify(
        smt_model.returns(z3.FPVal(answer, F64), z3.FPVal(curve(answer), F64),
                          z3.FPVal(delta, F64))))) == (curve(answer) <= delta)  # fmt: skip


# the full re-proof is `certdp prove`'s; `make test` checks that its committed result is current
# and that a stale one fails `certdp audit --strict` (test_stale_result_fails_the_audit.py)
@pytest.mark.slow
def test_every_obligation_is_proved():
    dp.enable_features("contrib")
    for obligation in smt_model.obligations():
        assert solve(obligation, 120)["status"] == "proved", obligation.claim


def test_half_the_epsilon_in_the_code_is_refuted(tmp_path):
    from .edited import prove_edited

    edit = {
        "combinators/fix_delta/make_fix_delta.py": [
            ("return epsilon  # label: read", "return epsilon / 2  # label: read")
        ]
    }
    summary = prove_edited(tmp_path, "make_fix_delta", edit, select="profile cdp rho=0.5,")
    assert summary["status"] == "counterexample", summary
    example = summary["counterexamples"][0]["example"]
    assert example["profile"] == "cdp rho=0.5" and float(example["delta"]) < 1


def test_a_step_that_leaves_the_interval_is_refuted():
    def beyond(lo, hi):
        rne = z3.RNE()
        return z3.fpAdd(rne, hi, z3.fpDiv(rne, z3.fpSub(rne, hi, lo), z3.FPVal(2.0, lo.sort())))

    outcome = solve(smt_model._step(midpoint_of=beyond), 60)
    assert outcome["status"] == "counterexample"
    assert {"lo", "hi", "mid"} <= set(outcome["example"])


def test_a_map_without_its_recheck_is_refuted(monkeypatch):
    monkeypatch.setattr(smt_model, "returns", lambda epsilon, value, delta: z3.BoolVal(True))
    outcome = solve(smt_model._answer(), 60)
    assert outcome["status"] == "counterexample"


@pytest.mark.parametrize("delta", [0.0, 1.0])
def test_the_edges_of_delta(delta):
    points, answer = _replay(lambda e: 0.0 if e >= 1.0 else 1.0, delta)
    assert answer == (0.0 if delta == 1.0 else 1.0)
