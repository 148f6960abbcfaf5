"""The runtime checks of a contract compare exactly and raise only ContractError.

Regressions of the referee's report on contracts/certified.tex (findings A1, B4).
"""

import pytest
import sympy

import certdp.prelude as dp
from certdp.contracts import contract_of
from certdp.contracts.contract import D_IN, Postcondition, as_rational, at_least
from certdp.core.errors import ContractError

#: An exact zero that sympy's relations cannot decide and whose value evalf cannot separate
#: from zero: log(6) - log(2) - log(3).
HIDDEN_ZERO = sympy.log(6) - sympy.log(2) - sympy.log(3)


def test_a_hidden_exact_zero_is_recognised():
    assert at_least(0, HIDDEN_ZERO)  # 0 >= 0; the 200-digit evaluation alone said no
    assert at_least(sympy.Rational(1, 10**600), HIDDEN_ZERO)
    assert not at_least(-sympy.Rational(1, 10**600), HIDDEN_ZERO)
    assert not at_least(HIDDEN_ZERO - sympy.Rational(1, 10**600), 0)


def test_a_comparison_nothing_decides_is_undecided_not_a_violation():
    # atan(1/2) + atan(1/3) = pi/4 (Machin-like), which sympy simplifies to nothing exact
    zero = sympy.atan(sympy.Rational(1, 2)) + sympy.atan(sympy.Rational(1, 3)) - sympy.pi / 4
    with pytest.raises(ContractError) as error:
        at_least(0, zero)
    assert error.value.condition == "undecided"


def _is_equal_with_bound(bound):
    """make_is_equal's contract with another bound, and an object it built."""
    contract = contract_of(dp.t.make_is_equal)
    built = dp.t.make_is_equal(
        dp.vector_domain(dp.atom_domain(T="i32")), dp.symmetric_distance(), 3
    )
    arguments = contract.bind((built.input_domain, built.input_metric, 3), {})
    changed = type(contract)(**{**contract.__dict__, "bound": bound})
    return Postcondition(changed, arguments), built


def test_check_map_accepts_a_map_equal_to_a_bound_with_a_hidden_zero():
    postcondition, built = _is_equal_with_bound(D_IN + HIDDEN_ZERO)
    postcondition.check_map(built, 4, 4)  # map(4) = 4 = the bound: no violation
    with pytest.raises(ContractError) as error:
        postcondition.check_map(built, 4, 3)
    assert error.value.condition == "stability-map"


@pytest.mark.parametrize(
    "d_out, condition",
    [
        (float("-inf"), "stability-map"),  # -oo is below every bound
        (float("nan"), "exact-value"),
        ((1, 2), "exact-value"),
        ("4", "exact-value"),
        (None, "exact-value"),
    ],
    ids=repr,
)
def test_check_map_raises_only_contract_errors(d_out, condition):
    postcondition, built = _is_equal_with_bound(D_IN)
    with pytest.raises(ContractError) as error:
        postcondition.check_map(built, 4, d_out)
    assert error.value.condition == condition


def test_as_rational_is_exact_or_refuses():
    assert as_rational(0.1) == sympy.Rational(3602879701896397, 36028797018963968)
    assert as_rational(float("inf")) == sympy.oo
    assert as_rational(float("-inf")) == -sympy.oo
    with pytest.raises(ContractError, match=r"\[exact-value\]"):
        as_rational(float("nan"))
