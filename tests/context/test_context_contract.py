"""The Context's contract (context.tex as an executable theorem) holds, and refutes a split
that rounds a share up."""

from fractions import Fraction

import pytest

from certdp.combinators._context.contract import CONTRACT
from certdp.core.errors import ContractError
from certdp.numeric import inf_cast


def test_the_contract_holds():
    report = CONTRACT.verify()
    assert report.examples > 0


def test_the_proof_and_the_contract_state_the_same_preconditions():
    from pathlib import Path

    from certdp.audit.discovery import ProofText

    proof = ProofText(Path(CONTRACT.constructor.__code__.co_filename).with_name("context.tex"))
    assert proof.precondition_ids == CONTRACT.precondition_ids


def _rounded_up(d_out, weights):
    total = sum(Fraction(w) for w in weights)
    if isinstance(d_out, tuple):
        return [tuple(inf_cast(Fraction(c) * Fraction(w) / total) for c in d_out) for w in weights]
    return [inf_cast(Fraction(d_out) * Fraction(w) / total) for w in weights]


def test_a_split_rounding_up_is_refuted():
    with pytest.raises(ContractError, match="context"):
        CONTRACT.verify(implementation=_rounded_up)


def test_a_split_over_its_exact_share_is_refuted():
    def skewed(d_out, weights):
        from certdp.combinators._context.split import split_budget

        shares = split_budget(d_out, weights)
        if len(shares) > 1 and not isinstance(d_out, tuple) and shares[1] > 0:
            shares[0], shares[1] = shares[0] + shares[1], 0.0  # same total, wrong first share
        return shares

    with pytest.raises(ContractError, match="exact share"):
        CONTRACT.verify(implementation=skewed)
