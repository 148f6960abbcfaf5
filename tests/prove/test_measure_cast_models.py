"""SMT models of make_approximate and make_fixed_approxDP_to_approxDP: the model's check holds
on the real code over the whole input range (hypothesis), every obligation is proved, and
unsound edits of the code are refuted."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.combinators.approximate import smt_model as approximate_model
from certdp.combinators.fixed_approxDP_to_approxDP import smt_model as fixed_model
from certdp.prove.solver import solve


@pytest.fixture(autouse=True)
def _contrib():
    dp.enable_features("contrib")
    yield


def _holds(violation) -> bool:
    solver = z3.Solver()
    solver.add(violation)
    return solver.check() == z3.unsat


losses = st.one_of(
    st.floats(min_value=0.0, allow_nan=False),
    st.integers(min_value=0, max_value=2**2000),
    st.fractions(min_value=0, max_denominator=10**30),
)


@given(loss=losses, measure=st.sampled_from(["MaxDivergence", "ZeroConcentratedDivergence"]))
def test_approximate_model_holds_on_the_code_everywhere(loss, measure):
    pair = approximate_model.code_map(loss, approximate_model._measures()[measure])
    assert _holds(approximate_model._invalid(loss, pair))


def test_approximate_model_refutes_a_smaller_loss_and_a_negative_delta():
    assert not _holds(approximate_model._invalid_pair(1.0, (0.5, 0.0)))
    assert not _holds(approximate_model._invalid_pair(1.0, (1.0, -1e-300)))
    assert not _holds(approximate_model._invalid_pair(math.inf, (1e308, 0.0)))
    assert not _holds(approximate_model._invalid_pair(1.0, (math.nan, 0.0)))
    assert _holds(approximate_model._invalid_pair(Fraction(1, 3), (Fraction(1, 3), 0.0)))


# the full re-proof is `certdp prove`'s; `make test` checks that its committed result is current
# and that a stale one fails `certdp audit --strict` (test_stale_result_fails_the_audit.py)
@pytest.mark.slow
def test_every_obligation_is_proved():
    for obligation in approximate_model.obligations() + fixed_model.obligations():
        assert solve(obligation, 120)["status"] == "proved", obligation.claim


def test_capping_the_inner_loss_in_the_code_is_refuted(tmp_path):
    from .edited import prove_edited

    edit = {
        "combinators/approximate/make_approximate.py": [
            (
                "return loss, 0.0  # label: pair",
                "return min(loss, 1.0), 0.0  # label: pair",
            )
        ]
    }
    summary = prove_edited(tmp_path, "make_approximate", edit, select="MaxDivergence")
    assert summary["status"] == "counterexample", summary


@pytest.mark.parametrize(
    "new",
    [
        "return (0.0, 0.0)  # label: inner-map",
        "return convert(measurement.map(d_in / 2))  # label: inner-map",
    ],
)
def test_an_unsound_privacy_map_closure_is_refuted(tmp_path, new):
    """Referee front (s7): the evaluator computes convert(inner.map(d)) without calling the
    closure the proof cites, and the stub map ignored d_in; both edits were 'proved'."""
    from .edited import prove_edited

    old = "return convert(measurement.map(d_in))  # label: inner-map"
    edit = {"combinators/approximate/make_approximate.py": [(old, new)]}
    summary = prove_edited(tmp_path, "make_approximate", edit, select="MaxDivergence")
    assert summary["status"] == "counterexample", summary


epsilons = st.one_of(
    st.floats(min_value=0.0, allow_nan=False), st.fractions(min_value=0, max_denominator=10**9)
)
deltas = st.one_of(st.floats(min_value=0.0, max_value=1.0), st.fractions(min_value=0, max_value=1))


@given(epsilon0=epsilons, delta0=deltas, e=epsilons)
def test_fixed_model_holds_on_the_code_everywhere(epsilon0, delta0, e):
    profile = fixed_model.code_profile(epsilon0, delta0)
    assert _holds(fixed_model._below(profile.delta(e), e, epsilon0, delta0))


def test_fixed_model_refutes_a_profile_without_its_step():
    """delta0 below epsilon0 is not implied by the pair: the randomised response exceeds it."""
    assert not _holds(fixed_model._below(1e-6, 1.0, 2.0, 1e-6))
    assert not _holds(fixed_model._below(0.0, 0.0, 1e-9, 0.0))
    assert not _holds(fixed_model._below(1e-13, 2.0, 2.0 + 1e-12, 0.0))  # RR: 8.8e-13 there
    assert _holds(fixed_model._below(1e-12, 2.0, 2.0 + 1e-12, 0.0))
    assert _holds(fixed_model._below(1.0, 1.0, 2.0, 1e-6))
    assert _holds(fixed_model._below(1e-6, 2.0, 2.0, 1e-6))


def test_exp_enclosure():
    for x in (Fraction(0), Fraction(-1, 3), Fraction(-700), Fraction(-1999)):
        lo, hi = fixed_model.exp_enclosure(x)
        with mpmath.workprec(300):
            value = mpmath.exp(mpmath.mpf(x.numerator) / x.denominator)
            assert mpmath.mpf(lo.numerator) / lo.denominator <= value
            assert value <= mpmath.mpf(hi.numerator) / hi.denominator
    assert fixed_model.exp_enclosure(-math.inf) == (0, Fraction(1, 2**2000))


def test_dropping_the_step_in_the_code_is_refuted(tmp_path):
    from .edited import prove_edited

    path = "combinators/fixed_approxDP_to_approxDP/make_fixed_approxDP_to_approxDP.py"
    edit = {
        path: [
            (
                "return fixed_delta if epsilon >= fixed_epsilon else 1.0  # label: curve",
                "return fixed_delta  # label: curve",
            )
        ]
    }
    summary = prove_edited(
        tmp_path, "make_fixed_approxDP_to_approxDP", edit, select="pair (1.0, 1e-06)"
    )
    assert summary["status"] == "counterexample", summary


def _ratio(raw):
    """A libmp (sign, man, exp, bc) tuple as an exact Fraction."""
    sign, man, exp, _ = raw
    return (-1) ** sign * Fraction(man) * Fraction(2) ** exp


def test_exp_enclosure_is_checked_not_trusted(monkeypatch):
    """Referee counterexample: the enclosure must not come from mpmath.exp; a wrong mpmath.exp
    (off by 2**-140) must not move it off exp(x)."""
    real_exp = mpmath.exp
    monkeypatch.setattr(mpmath, "exp", lambda v: real_exp(v) * (1 + mpmath.mpf(2) ** -140))
    lo, hi = fixed_model.exp_enclosure(Fraction(-1))
    old = mpmath.iv.prec
    mpmath.iv.prec = 400
    try:
        true = mpmath.iv.exp(mpmath.iv.mpf(-1))
        true_lo, true_hi = _ratio(true._mpi_[0]), _ratio(true._mpi_[1])
    finally:
        mpmath.iv.prec = old
    assert lo <= true_lo and true_hi <= hi
    assert hi - lo < Fraction(1, 2**190)  # tight enough to refute the edits it is used for
