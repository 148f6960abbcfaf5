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


# -- ties among tiny values (session 11: the selection contracts' "undecided" flake) ------------

#: The last bit of a float near 1: log(1 + 2**-1074) > 0, though sympy's relations call it 0.
TINY = sympy.log(1 + sympy.Rational(1, 2**1074))


def test_a_tiny_difference_is_decided_by_its_enclosure_not_by_sympy_relations():
    assert sympy.Ge(0, TINY) == sympy.true  # sympy's relation: a low-precision zero, "equal"
    assert not at_least(0, TINY)
    assert at_least(TINY, 0)
    # its square (a Renyi divergence of two scores a float's last bit apart) needs 2200 bits
    assert not at_least(0, TINY**2) and at_least(TINY**2, 0)
    assert at_least(1, 1 + sympy.exp(-sympy.Integer(2000))) is False
    # beyond the largest precision: undecided, never decided from an interval holding 0
    with pytest.raises(ContractError) as error:
        at_least(0, sympy.log(1 + sympy.Rational(1, 2**20000)))
    assert error.value.condition == "undecided"


def test_infinities_and_rationals_compare_exactly():
    assert at_least(float("inf"), sympy.oo) and at_least(0, -sympy.oo)
    assert not at_least(10**400, sympy.oo) and not at_least(float("-inf"), 0)
    assert at_least(0.1, sympy.Rational(1, 10))  # the float 0.1 is 1/10 + 2**-57 / 5 or so
    assert at_least(sympy.Rational(1, 10), 0.1) is False
    assert at_least(0.5, sympy.Rational(1, 2))


def test_selection_contract_sees_a_tie_broken_by_one_subnormal():
    # scores a subnormal apart under a claimed distance of 0: the exact divergence is positive
    # and tiny (about 2**-1073); the contract must call it a violation, not "undecided" and
    # not "equal to 0" as sympy's relation does
    from certdp.contracts.contract import PrivacyViolation

    contract = contract_of(dp.m.make_noisy_top_k)
    for measure in (dp.max_divergence(), dp.zero_concentrated_divergence()):
        kwargs = {
            "input_domain": dp.vector_domain(dp.atom_domain(bounds=(-3.0, 3.0), T="f64")),
            "input_metric": dp.linf_distance(T="f64"),
            "output_measure": measure,
            "k": 2,
            "scale": 0.5,
            "negate": False,
        }
        built = dp.m.make_noisy_top_k(**kwargs)
        x, x_prime = [5e-324, 0.0], [0.0, 0.0]
        assert contract.check_pair(built, kwargs, x, x_prime, 1.0, built.map(1.0)) < 1
        with pytest.raises(PrivacyViolation):
            contract.check_pair(built, kwargs, x, x_prime, 0.0, 0.0)
        assert contract.check_pair(built, kwargs, x, list(x), 0.0, 0.0) == 0.0


def test_a_sympy_float_is_compared_by_its_exact_binary_value():
    """sympy rounds arithmetic on a Float to its 53 bits: Float(1.0) - (1 + 2**-200) would be
    the literal 0 and read as a tie; as_rational replaces the Float by its exact value."""
    tiny = sympy.Rational(1, 2**200)
    assert at_least(sympy.Float(1.0), 1 + tiny) is False
    assert at_least(1 + tiny, sympy.Float(1.0)) is True
    assert as_rational(sympy.Float(0.1)) == sympy.Rational(3602879701896397, 2**55)


def test_a_sympy_float_inside_an_expression_is_exact():
    """The float 0.1 is 0.1000000000000000055511151231257827... > 1/10, so 1/10*log 2 is
    below 0.1*log 2, though a Float coefficient would collect both to the same value."""
    log2 = sympy.log(2)
    assert at_least(sympy.Rational(1, 10) * log2, sympy.Float(0.1) * log2) is False
    assert at_least(sympy.Float(0.1) * log2, sympy.Rational(1, 10) * log2) is True
    assert as_rational(sympy.Float("inf")) == sympy.oo
    assert as_rational(-sympy.Float("inf") * log2) == -sympy.oo
    with pytest.raises(ContractError, match="undecided"):
        at_least(sympy.Float("nan"), 3)


# --- bounded work (session-11 referee: an unevaluated huge power hung at_least) -----------


def _within(seconds: float, function):
    """``function()``'s result, failing instead of hanging past ``seconds``."""
    import signal

    def expired(*_):
        raise TimeoutError("at_least did not return in time")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(int(seconds))
    try:
        return function()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_an_unevaluated_huge_power_is_decided_by_its_enclosure_without_evaluating_it():

    power = sympy.Pow(1 + sympy.Rational(1, 2**60), 2**60, evaluate=False)  # just below e
    assert _within(10, lambda: at_least(power, sympy.E)) is False
    assert _within(10, lambda: at_least(sympy.E, power)) is True


def test_a_power_too_big_to_evaluate_is_still_decided_by_its_enclosure():
    tower = sympy.Pow(sympy.Pow(3, 2**40, evaluate=False), 2**40, evaluate=False)  # 3**(2**80)
    assert _within(10, lambda: at_least(tower, sympy.Rational(1, 3))) is True
    assert _within(10, lambda: at_least(sympy.Rational(1, 3), tower)) is False


@pytest.mark.parametrize(
    "value",
    [
        "Pow(2, Pow(2, 2**20, evaluate=False), evaluate=False)",
        "exp(Pow(2, 2**20, evaluate=False))",
        "exp(Integer(2)**5000)",
    ],
)
def test_sides_beyond_the_work_bounds_are_undecided_quickly(value):
    expression = eval(value, vars(sympy))  # the unevaluated tree as written
    with pytest.raises(ContractError) as raised:
        _within(20, lambda: at_least(expression, sympy.Rational(1, 3)))
    assert raised.value.condition == "undecided"


def test_the_work_estimate_counts_what_evaluation_would_build():

    from certdp.contracts.contract import WORK_BITS, _work_bits

    assert _work_bits(sympy.Rational(3, 4)) == 2 + 3
    assert _work_bits(sympy.Pow(3, 2**23, evaluate=False)) is None  # 3 bits times 2**23
    assert _work_bits(sympy.Pow(3, 2**20, evaluate=False)) <= WORK_BITS
    assert _work_bits(sympy.log(2) + sympy.exp(sympy.Rational(1, 2))) > 0


# referee ref-gate2 (session 12), assertions kept: the Float conversion runs within the
# work bound, and a too-deep expression is the typed 'undecided'.
def _at_least_in_subprocess(expression: str, timeout: float = 30) -> str:
    import subprocess
    import sys

    code = (
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))\n"
        "import sympy as S\nfrom certdp.contracts.contract import at_least\n"
        "from certdp.core.errors import ContractError\n"
        f"try:\n    print(at_least({expression}))\n"
        "except ContractError as error:\n    print(error.condition)\n"
        "except Exception as error:\n    print('raised ' + type(error).__name__)\n"
    )
    try:
        return subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout
        ).stdout.strip()
    except subprocess.TimeoutExpired:
        return "hang"


def test_at_least_a_float_in_an_unevaluated_huge_power_is_decided_without_evaluating_it():
    # (3/2)**(2**40) > e, decided by the enclosure of the unevaluated power
    out = _at_least_in_subprocess("S.Pow(S.Float(1.5), 2**40, evaluate=False), S.E")
    assert out == "True", out


def test_at_least_the_same_power_with_an_integer_base_is_decided():
    assert _at_least_in_subprocess("S.Pow(3, 2**40, evaluate=False), S.E") == "True"


def test_at_least_a_float_exponent_beyond_the_bounds_is_undecided_quickly():
    out = _at_least_in_subprocess("S.Pow(3, S.Float('1e300'), evaluate=False), S.E")
    assert out in ("True", "undecided"), out


def test_at_least_a_deep_expression_is_undecided_not_a_recursion_error():
    expression = (
        "(lambda e: [e := S.Mul(S.Add(e, S.Rational(1, 7), evaluate=False), S.Rational(1, 2),"
        " evaluate=False) for _ in range(5000)][-1])(S.Rational(1, 3)), S.pi"
    )
    out = _at_least_in_subprocess(expression)
    assert out in ("True", "False", "undecided"), out


def test_a_float_inside_an_expression_is_still_converted_exactly():
    assert at_least(sympy.Float(0.1) + sympy.pi, sympy.pi)
    assert as_rational(sympy.Float(0.5) * sympy.pi) == sympy.pi / 2


# An exponential of an argument below -2**256 (a Gaussian tail on a grid of 2**-1074 steps) is
# enclosed by [0, 2**-(2**256)] (certified.tex, iv-exp-tiny), never computed, and decides.
HUGE = sympy.Integer(2) ** 300


def test_a_negligible_exponential_beside_a_float_is_decided():
    assert at_least(sympy.Rational(1, 10**19), sympy.sqrt(2) * sympy.exp(-HUGE))
    assert not at_least(sympy.Rational(-1, 10), sympy.exp(-HUGE))
    # partly below the limit: exp(-2**256 + 1/2 - 2**300 ...) mixed with a term in range
    assert at_least(sympy.Rational(1, 10**19), sympy.exp(-50) * sympy.exp(-HUGE) + sympy.exp(-50))
    assert not at_least(sympy.exp(-51), sympy.exp(-50) + sympy.exp(-HUGE))


def test_an_exponential_reaching_below_the_limit_is_enclosed_by_its_upper_part():
    from mpmath.ctx_iv import MPIntervalContext

    from certdp.contracts.contract import EXPONENT_LIMIT, _exp

    context = MPIntervalContext()
    context.prec = 128
    straddle = _exp(context, context.mpf([-(2**300), -3]))
    assert straddle.a == 0 and straddle.b >= context.exp(context.mpf(-3)).b
    tiny = _exp(context, context.mpf([-(2**300), -(2**299)]))
    assert tiny.a == 0 and tiny.b == context.mpf(2) ** (-EXPONENT_LIMIT)


def test_an_exponential_above_the_limit_is_still_undecided():
    with pytest.raises(ContractError) as error:
        at_least(sympy.exp(HUGE), 1)
    assert error.value.condition == "undecided"
