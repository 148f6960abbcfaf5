"""The SMT model of the Context's budget split is the code's arithmetic bit for bit, and its
checks refute a split that rounds a share up."""

from __future__ import annotations

import math

import z3
from hypothesis import given
from hypothesis import strategies as st

from certdp.combinators._context import smt_model, split_budget
from certdp.contracts.smt import float_of
from certdp.prove.solver import solve

F64 = z3.Float64()


@given(
    budget=st.floats(min_value=0.0, allow_nan=False, allow_infinity=False),
    n=st.integers(min_value=1, max_value=100),
)
def test_the_model_share_is_the_code_share_bit_for_bit(budget, n):
    model = float_of(z3.simplify(smt_model.share_model(z3.FPVal(budget, F64), n)))
    shares = split_budget(budget, [1] * n)
    assert all(math.copysign(1.0, s) == math.copysign(1.0, model) for s in shares)
    assert shares == [model] * n


def test_the_code_instances_hold_and_a_rounded_up_share_is_refuted():
    assert solve(smt_model.code_instance("code"), 120)["status"] == "proved"

    def up(budget, weights):
        from fractions import Fraction

        from certdp.numeric import inf_cast

        total = sum(Fraction(w) for w in weights)
        pair = isinstance(budget, tuple)
        return [
            tuple(inf_cast(Fraction(c) * Fraction(w) / total) for c in budget)
            if pair
            else inf_cast(Fraction(budget) * Fraction(w) / total)
            for w in weights
        ]

    outcome = solve(smt_model.code_instance("code", shares_of=up), 120)
    assert outcome["status"] == "counterexample"


def test_the_model_refutes_shares_rounded_up():
    outcome = solve(smt_model.model_instance(10, rounding=z3.RTP()), 120)
    assert outcome["status"] == "counterexample"


def test_rounding_up_in_the_code_is_refuted(tmp_path):
    from .edited import prove_edited

    edit = {
        "combinators/_context/split.py": [
            ("from certdp.numeric import neg_inf_cast", "from certdp.numeric import inf_cast"),
            ("tuple(neg_inf_cast(c * weight", "tuple(inf_cast(c * weight"),
        ]
    }
    summary = prove_edited(tmp_path, "context", edit, select="no share exceeds")
    assert summary["status"] == "counterexample", summary
    example = summary["counterexamples"][0]["example"]
    assert float(example["budget"]) > 0
