"""Outward-rounded float arithmetic: bounds against exact results, tightness, errors."""

import math
import operator
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from certdp.core.errors import ArithmeticOverflowError, DPError, FailedCastError, MakeDomainError
from certdp.numeric import (
    inf_add,
    inf_cast,
    inf_div,
    inf_log2,
    inf_mul,
    inf_sqrt,
    inf_sub,
    is_representable,
    neg_inf_add,
    neg_inf_cast,
    neg_inf_div,
    neg_inf_log2,
    neg_inf_mul,
    neg_inf_sqrt,
    neg_inf_sub,
    next_down,
    next_up,
    round_rational,
    ulp,
)

F64_MAX = 1.7976931348623157e308
F32_MAX = float(np.finfo(np.float32).max)
MAX = {"f64": F64_MAX, "f32": F32_MAX}
TINY = {"f64": 5e-324, "f32": float(np.float32(1e-45))}


def _f32(x) -> bool:
    return abs(x) <= F32_MAX and float(np.float32(x)) == x


def _scaled(mantissa_bits, lowest, highest):
    """m * 2**e: spreads magnitudes over the whole format, subnormals included."""
    m = st.integers(-(1 << mantissa_bits), 1 << mantissa_bits)
    return st.builds(math.ldexp, m, st.integers(lowest, highest))


f64s = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    _scaled(53, -1074, 970),
)
f32s = st.one_of(
    st.floats(width=32, allow_nan=False, allow_infinity=False),
    _scaled(24, -149, 103).filter(_f32),
)
typed_pairs = st.one_of(
    st.tuples(st.just("f64"), f64s, f64s),
    st.tuples(st.just("f32"), f32s, f32s),
)
typed_values = st.one_of(
    st.tuples(st.just("f64"), f64s),
    st.tuples(st.just("f32"), f32s),
)


# Independent neighbours (math / numpy), so the bound checks do not trust the module.
def _up(x: float, T: str) -> float:
    if T == "f64":
        return math.nextafter(x, math.inf)
    return float(np.nextafter(np.float32(x), np.float32(np.inf)))


def _down(x: float, T: str) -> float:
    if T == "f64":
        return math.nextafter(x, -math.inf)
    return float(np.nextafter(np.float32(x), np.float32(-np.inf)))


def _spacing(x: float, T: str) -> float:
    if T == "f64":
        return math.ulp(x)
    if abs(x) == F32_MAX:
        return 2.0**104  # np.spacing overflows here
    return float(np.spacing(np.float32(abs(x))))


def _in_type(x: float, T: str) -> bool:
    return math.isfinite(x) and (T == "f64" or _f32(x))


def check_enclosure(low: float, high: float, exact: Fraction, T: str):
    """low/high are the tightest T values below/above ``exact``."""
    assert _in_type(low, T) and _in_type(high, T)
    assert Fraction(low) <= exact <= Fraction(high)
    if Fraction(low) == exact or Fraction(high) == exact:
        assert low == high
        return
    # tight: the neighbours are on the wrong side
    assert Fraction(_up(low, T)) > exact
    assert Fraction(_down(high, T)) < exact
    # within one ulp of the result
    assert exact - Fraction(low) < Fraction(_spacing(low, T))
    assert Fraction(high) - exact < Fraction(_spacing(high, T))


BINARY = [
    (inf_add, neg_inf_add, operator.add),
    (inf_sub, neg_inf_sub, operator.sub),
    (inf_mul, neg_inf_mul, operator.mul),
    (inf_div, neg_inf_div, operator.truediv),
]


def test_one_tenth_plus_two_tenths():
    assert inf_add(0.1, 0.2) == float.fromhex("0x1.3333333333334p-2")
    assert neg_inf_add(0.1, 0.2) == float.fromhex("0x1.3333333333333p-2")


@pytest.mark.parametrize("up, down, exact_op", BINARY, ids=lambda f: getattr(f, "__name__", ""))
@given(args=typed_pairs)
def test_binary_ops_enclose_exact_result(up, down, exact_op, args):
    T, a, b = args
    if exact_op is operator.truediv:
        assume(b != 0)
    exact = exact_op(Fraction(a), Fraction(b))
    if abs(exact) > MAX[T]:
        for op in (up, down):
            with pytest.raises(ArithmeticOverflowError) as err:
                op(a, b, T)
            assert err.value.parameter == op.__name__
        return
    check_enclosure(down(a, b, T), up(a, b, T), exact, T)


@given(args=typed_pairs)
def test_binary_ops_with_exact_results_are_exact(args):
    T, a, b = args
    for x, y in ((a, 0.0), (0.0, b), (a, -a)):
        assert inf_add(x, y, T) == neg_inf_add(x, y, T) == x + y
        assert inf_sub(x, -y, T) == neg_inf_sub(x, -y, T) == x + y
    for x, y in ((a, 1.0), (-1.0, b), (a, 0.0), (0.0, b)):
        assert inf_mul(x, y, T) == neg_inf_mul(x, y, T) == x * y
    for y in (1.0, -1.0):
        assert inf_div(a, y, T) == neg_inf_div(a, y, T) == a / y


@given(args=typed_values)
@example(args=("f64", 2.0))
@example(args=("f64", 5e-324))
@example(args=("f32", TINY["f32"]))
@example(args=("f64", F64_MAX))
def test_sqrt_encloses_exact_root(args):
    T, x = args
    x = abs(x)
    low, high = neg_inf_sqrt(x, T), inf_sqrt(x, T)
    assert _in_type(low, T) and _in_type(high, T)
    assert Fraction(low) ** 2 <= Fraction(x) <= Fraction(high) ** 2
    if Fraction(low) ** 2 == Fraction(x):
        assert low == high
    else:
        assert Fraction(_up(low, T)) ** 2 > Fraction(x)
        assert Fraction(_down(high, T)) ** 2 < Fraction(x)
        assert high == _up(low, T)


@given(root=st.one_of(_scaled(26, -537, 480), _scaled(12, -74, 50)))
def test_sqrt_of_perfect_square_is_exact(root):
    root = abs(root)
    square = root * root
    assume(math.isfinite(square) and Fraction(square) == Fraction(root) ** 2)
    T = "f32" if _f32(root) and _f32(square) and square <= F32_MAX else "f64"
    assert inf_sqrt(square, T) == neg_inf_sqrt(square, T) == root


def _log2_400(x: float) -> Fraction:
    with mpmath.workprec(400):
        y = mpmath.log(mpmath.mpf(x), 2)
        man, exp = y.man_exp  # the magnitude only: man_exp drops the sign
    return int(mpmath.sign(y)) * Fraction(int(man)) * Fraction(2) ** int(exp)


@given(args=typed_values)
@example(args=("f64", 3.0))
@example(args=("f64", 1.0 + 2.0**-52))
@example(args=("f64", 1.0 - 2.0**-53))
@example(args=("f32", 1.0 + 2.0**-23))
@example(args=("f32", 1.0 - 2.0**-24))
@example(args=("f64", 5e-324))
@example(args=("f64", F64_MAX))
def test_log2_encloses_exact_log(args):
    T, x = args
    x = abs(x)
    assume(x > 0)
    low, high = neg_inf_log2(x, T), inf_log2(x, T)
    mantissa, exponent = math.frexp(x)
    if mantissa == 0.5:
        assert low == high == exponent - 1
        return
    check_enclosure(low, high, _log2_400(x), T)


@pytest.mark.parametrize("k", [-1074, -149, -1, 0, 1, 127, 1023])
def test_log2_of_power_of_two_is_exact(k):
    T = "f32" if -149 <= k <= 127 else "f64"
    assert inf_log2(math.ldexp(1.0, k), T) == neg_inf_log2(math.ldexp(1.0, k), T) == k


exact_numbers = st.one_of(
    st.fractions(),
    st.integers(-(1 << 140), 1 << 140),
    st.floats(allow_nan=False, allow_infinity=False),
    st.builds(
        lambda n, d, e: Fraction(n, d) * Fraction(2) ** e,
        st.integers(-(1 << 80), 1 << 80),
        st.integers(1, 1 << 80),
        st.integers(-1200, 1100),
    ),
)


@given(q=exact_numbers, T=st.sampled_from(["f32", "f64"]))
def test_cast_encloses_value(q, T):
    exact = Fraction(q)
    if abs(exact) > MAX[T]:
        for op in (inf_cast, neg_inf_cast):
            with pytest.raises(ArithmeticOverflowError, match=op.__name__):
                op(q, T)
        return
    check_enclosure(neg_inf_cast(q, T), inf_cast(q, T), exact, T)
    nearest = round_rational(exact, T, "nearest")
    assert nearest in (neg_inf_cast(q, T), inf_cast(q, T))


@given(q=exact_numbers)
def test_round_nearest_matches_float_for_f64(q):
    exact = Fraction(q)
    try:
        expected = float(exact)
    except OverflowError:
        with pytest.raises(ArithmeticOverflowError) as err:
            round_rational(exact, "f64", "nearest")
        assert err.value.parameter == "q"
        return
    assert round_rational(exact, "f64", "nearest") == expected
    assert round_rational(exact, "f64", "up") >= expected >= round_rational(exact, "f64", "down")


@given(x=f64s)
def test_round_nearest_matches_numpy_float32_for_f64_inputs(x):
    with np.errstate(over="ignore"):
        expected = float(np.float32(x))
    if math.isinf(expected):
        with pytest.raises(ArithmeticOverflowError):
            round_rational(Fraction(x), "f32", "nearest")
    else:
        assert round_rational(Fraction(x), "f32", "nearest") == expected


@pytest.mark.parametrize("T", ["f32", "f64"])
def test_round_rational_at_the_overflow_threshold(T):
    top = Fraction(MAX[T])
    half_ulp = Fraction(2) ** (970 if T == "f64" else 103)
    assert round_rational(top + half_ulp - Fraction(1, 10**9), T, "nearest") == MAX[T]
    with pytest.raises(ArithmeticOverflowError):
        round_rational(top + half_ulp, T, "nearest")  # tie rounds to even, i.e. to infinity
    assert round_rational(top + 1, T, "down") == MAX[T]
    assert round_rational(-top - 1, T, "up") == -MAX[T]
    assert round_rational(top * 4, T, "down") == MAX[T]
    with pytest.raises(ArithmeticOverflowError, match="rounded up"):
        round_rational(top + 1, T, "up")
    with pytest.raises(ArithmeticOverflowError, match="rounded down"):
        round_rational(-top - 1, T, "down")


@pytest.mark.parametrize("T", ["f32", "f64"])
def test_round_rational_subnormals_and_zero(T):
    tiny = Fraction(TINY[T])
    assert round_rational(0, T, "up") == 0.0
    assert round_rational(tiny / 3, T, "up") == TINY[T]
    assert round_rational(tiny / 3, T, "down") == 0.0
    assert round_rational(tiny / 3, T, "nearest") == 0.0
    assert round_rational(-tiny / 3, T, "down") == -TINY[T]
    assert round_rational(tiny / 2, T, "nearest") == 0.0  # tie to even
    assert round_rational(tiny * 3 / 2, T, "nearest") == 2 * TINY[T]  # tie to even


def test_round_rational_rejects_unknown_direction():
    with pytest.raises(DPError) as err:
        round_rational(Fraction(1, 3), "f64", "sideways")
    assert err.value.parameter == "direction"
    with pytest.raises(ArithmeticOverflowError) as err:
        round_rational(math.nan)
    assert err.value.parameter == "q" and "NaN" in str(err.value)


@given(args=typed_values)
def test_neighbours_and_ulp_match_math_and_numpy(args):
    T, x = args
    if x != MAX[T]:
        assert next_up(x, T) == _up(x, T)
    if x != -MAX[T]:
        assert next_down(x, T) == _down(x, T)
    assert ulp(x, T) == _spacing(x, T)
    assert is_representable(x, T)


def test_ulp_of_zero_and_of_any_real():
    assert ulp(0, "f64") == TINY["f64"]
    assert ulp(0.0, "f32") == TINY["f32"]
    assert ulp(Fraction(3, 2), "f64") == 2.0**-52
    assert ulp(Fraction(3, 2), "f32") == 2.0**-23


@pytest.mark.parametrize(
    "x, T, expected",
    [
        (0.1, "f64", True),
        (0.1, "f32", False),
        (0.5, "f32", True),
        (Fraction(1, 3), "f64", False),
        (2**53 + 1, "f64", False),
        (2**24 + 1, "f32", False),
        (2**1024, "f64", False),
        (np.float32(0.1), "f32", True),
        (np.int64(7), "f32", True),
        (math.nan, "f64", False),
        (math.inf, "f64", False),
        ("1.0", "f64", False),
        (True, "f64", False),
    ],
)
def test_is_representable(x, T, expected):
    assert is_representable(x, T) is expected


def test_numpy_and_fraction_operands():
    assert inf_add(np.float32(0.5), np.int8(1), "f32") == 1.5
    assert inf_mul(Fraction(3, 4), np.float64(2.0)) == 1.5
    check_enclosure(neg_inf_div(1, 3, "f32"), inf_div(1, 3, "f32"), Fraction(1, 3), "f32")
    assert inf_div(1, 3, "f32") == float.fromhex("0x1.555556p-2")


# ---------------------------------------------------------------- error branches

UNARY = [inf_sqrt, neg_inf_sqrt, inf_log2, neg_inf_log2]
BINARY_OPS = [f for pair in BINARY for f in pair[:2]]


@pytest.mark.parametrize("op", BINARY_OPS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, np.float32(np.nan)])
def test_binary_non_finite_operand(op, bad):
    with pytest.raises(ArithmeticOverflowError) as err:
        op(bad, 1.0)
    assert err.value.parameter == "lhs" and str(err.value).startswith("lhs:")
    with pytest.raises(ArithmeticOverflowError) as err:
        op(1.0, bad)
    assert err.value.parameter == "rhs" and str(err.value).startswith("rhs:")


@pytest.mark.parametrize("op", UNARY, ids=lambda f: f.__name__)
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_unary_non_finite_operand(op, bad):
    with pytest.raises(ArithmeticOverflowError) as err:
        op(bad)
    assert err.value.parameter == "x" and op.__name__ in str(err.value)


@pytest.mark.parametrize("op", [inf_cast, neg_inf_cast, ulp], ids=lambda f: f.__name__)
@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_cast_and_ulp_non_finite(op, bad):
    with pytest.raises(ArithmeticOverflowError) as err:
        op(bad)
    assert err.value.parameter in ("value", "x")


@pytest.mark.parametrize("T", ["f32", "f64"])
@pytest.mark.parametrize(
    "op, a, b",
    [
        (inf_add, 1.0, 1.0),
        (neg_inf_add, 1.0, 1.0),
        (inf_sub, -1.0, 1.0),
        (neg_inf_sub, -1.0, 1.0),
        (inf_mul, 1.0, 2.0),
        (neg_inf_mul, 1.0, -2.0),
        (inf_div, 1.0, 0.5),
        (neg_inf_div, -1.0, 0.5),
    ],
    ids=lambda v: getattr(v, "__name__", repr(v)),
)
def test_overflow_raises_in_both_directions(T, op, a, b):
    with pytest.raises(ArithmeticOverflowError) as err:
        op(a * MAX[T], b * MAX[T] if op in (inf_add, neg_inf_add, inf_sub, neg_inf_sub) else b, T)
    assert err.value.parameter == op.__name__
    assert "exceeds the finite range" in str(err.value) and T in str(err.value)


def test_overflow_of_cast():
    with pytest.raises(ArithmeticOverflowError, match="inf_cast"):
        inf_cast(2**1024)
    with pytest.raises(ArithmeticOverflowError, match="neg_inf_cast"):
        neg_inf_cast(-(10**400))
    with pytest.raises(ArithmeticOverflowError, match="inf_cast"):
        inf_cast(F64_MAX, "f32")
    assert neg_inf_cast(F64_MAX, "f64") == F64_MAX


@pytest.mark.parametrize("op", [inf_div, neg_inf_div], ids=lambda f: f.__name__)
@pytest.mark.parametrize("zero", [0.0, -0.0, 0, Fraction(0)])
def test_division_by_zero(op, zero):
    with pytest.raises(ArithmeticOverflowError, match="by zero") as err:
        op(1.0, zero)
    assert err.value.parameter == "rhs"


@pytest.mark.parametrize("op", UNARY, ids=lambda f: f.__name__)
def test_negative_and_zero_domain_errors(op):
    with pytest.raises(ArithmeticOverflowError) as err:
        op(-1.0)
    assert err.value.parameter == "x" and op.__name__ in str(err.value)
    if "log2" in op.__name__:
        with pytest.raises(ArithmeticOverflowError, match="x > 0"):
            op(0.0)
    else:
        assert op(0.0) == 0.0 and op(-0.0) == 0.0


@pytest.mark.parametrize("op", BINARY_OPS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("bad", [0.1, 2**24 + 1, Fraction(1, 3), 1e300])
def test_f32_operand_not_representable(op, bad):
    with pytest.raises(FailedCastError) as err:
        op(bad, 1.0, "f32")
    assert err.value.parameter == "lhs" and "not exactly representable in f32" in str(err.value)
    with pytest.raises(FailedCastError) as err:
        op(1.0, bad, "f32")
    assert err.value.parameter == "rhs"


@pytest.mark.parametrize("op", UNARY + [next_up, next_down], ids=lambda f: f.__name__)
def test_unary_operand_not_representable(op):
    with pytest.raises(FailedCastError) as err:
        op(0.1, "f32")
    assert err.value.parameter == "x" and op.__name__ in str(err.value)
    with pytest.raises(FailedCastError):
        op(Fraction(1, 3), "f64")
    with pytest.raises(FailedCastError):
        op(2**1024 + 1, "f64")


@pytest.mark.parametrize("bad", [True, "1.0", None, 1j])
def test_non_numbers_are_rejected(bad):
    with pytest.raises(FailedCastError) as err:
        inf_add(bad, 1.0)
    assert err.value.parameter == "lhs"
    with pytest.raises(FailedCastError) as err:
        neg_inf_cast(bad)
    assert err.value.parameter == "value"


@pytest.mark.parametrize("T", ["i32", "bool"])
def test_non_float_type_is_rejected(T):
    with pytest.raises(MakeDomainError) as err:
        inf_add(1.0, 1.0, T)
    assert err.value.parameter == "T"


@pytest.mark.parametrize("T", ["f32", "f64"])
def test_neighbours_beyond_the_range(T):
    with pytest.raises(ArithmeticOverflowError, match="next_up") as err:
        next_up(MAX[T], T)
    assert err.value.parameter == "x"
    with pytest.raises(ArithmeticOverflowError, match="next_down"):
        next_down(-MAX[T], T)
    assert next_up(-0.0, T) == TINY[T]
    assert next_down(0.0, T) == -TINY[T]
    with pytest.raises(ArithmeticOverflowError, match="ulp"):
        ulp(2 * Fraction(MAX[T]), T)


# A NumPy long double beyond the binary64 range is a finite number, rounded like any other.
@pytest.mark.skipif(
    np.finfo(np.longdouble).max <= np.finfo(np.float64).max,
    reason="long double is binary64 on this platform",
)
def test_long_doubles_beyond_binary64_are_finite_numbers():
    big = np.longdouble(2) ** 1100
    assert round_rational(big, "f64", "down") == 1.7976931348623157e308
    assert round_rational(-big, "f64", "up") == -1.7976931348623157e308
    assert not is_representable(big)
    with pytest.raises(ArithmeticOverflowError, match="exceeds"):
        inf_cast(big)
    with pytest.raises(FailedCastError, match="not exactly representable"):
        inf_add(big, 1.0)
    with pytest.raises(ArithmeticOverflowError, match="not finite"):
        inf_add(np.longdouble("inf"), 1.0)
    with pytest.raises(ArithmeticOverflowError, match="NaN"):
        inf_add(np.longdouble("nan"), 1.0)


# ------------------------------------------- the fast path of exact Python floats (floats.tex)
finite_f64 = st.floats(allow_nan=False, allow_infinity=False)


@given(finite_f64, finite_f64)
@example(5e-324, -5e-324)
@example(2.2250738585072014e-308, 5e-324)
@example(F64_MAX, -F64_MAX)
def test_python_floats_take_the_same_results_as_numpy_floats(x, y):
    """An exact Python float (fast path) gives the bits a NumPy float64 of the same value
    (the general path: np.isnan / np.isinf and the representability test) gives."""
    for op in BINARY_OPS:
        fast = general = None
        try:
            fast = op(x, y)
        except DPError as error:
            fast = (type(error), str(error))
        try:
            general = op(np.float64(x), np.float64(y))
        except DPError as error:
            general = (type(error), str(error))
        if isinstance(fast, float):
            assert isinstance(general, float)
            assert math.copysign(1.0, fast) == math.copysign(1.0, general)
        assert fast == general or (isinstance(fast, tuple) and fast[0] is general[0])


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_python_float_non_finite_messages_match_the_numpy_branch(bad):
    for side in ("lhs", "rhs"):
        messages = []
        for value in (bad, np.float64(bad)):
            arguments = (value, 1.0) if side == "lhs" else (1.0, value)
            with pytest.raises(ArithmeticOverflowError) as err:
                inf_add(*arguments)
            messages.append((err.value.parameter, str(err.value)))
        assert messages[0] == messages[1]


def test_the_f64_fast_path_leaves_f32_and_float_subclasses_to_the_general_tests():
    with pytest.raises(FailedCastError):
        inf_add(0.1, 1.0, "f32")  # 0.1 is not a binary32 value

    class Float(float):
        pass

    with pytest.raises(FailedCastError):
        inf_add(Float(1.0), 1.0)
    assert inf_add(5e-324, 0.0) == 5e-324  # a subnormal is an f64 element
