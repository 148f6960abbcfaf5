"""The rounding direction of every ``inf_``/``neg_inf_`` operation and cast, over its whole
domain, against exact results computed independently of ``certdp.numeric``.

For each operation ``op`` with exact real result ``r`` on ``T`` operands the module promises
(docstring of ``certdp.numeric.floats``): ``inf_op`` returns the smallest finite ``T`` value
``>= r``, ``neg_inf_op`` the largest finite ``T`` value ``<= r``; when ``|r|`` exceeds ``T``'s
largest finite value, an operand is ``±inf``/NaN, or ``r`` is undefined, both raise
``ArithmeticOverflowError``.  Zero results are returned as ``+0.0`` (equal to ``-0.0`` as a
number; only the numeric value is promised).

The operands cover the whole domain: negative numbers, magnitudes below 1, subnormals, the
largest finite values and their neighbours, ``±0`` and ``±inf`` (where an operation is not
defined at infinity, the test checks the refusal).
"""

from __future__ import annotations

import math
import operator
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from certdp.core.errors import ArithmeticOverflowError
from certdp.numeric import (
    inf_add,
    inf_cast,
    inf_div,
    inf_log2,
    inf_mul,
    inf_sqrt,
    inf_sub,
    neg_inf_add,
    neg_inf_cast,
    neg_inf_div,
    neg_inf_log2,
    neg_inf_mul,
    neg_inf_sqrt,
    neg_inf_sub,
)

# ------------------------------------------------------------------ the formats, via numpy

NP = {"f64": np.float64, "f32": np.float32}
MAX = {T: float(np.finfo(NP[T]).max) for T in NP}
TINY = {T: float(np.finfo(NP[T]).smallest_subnormal) for T in NP}
NORMAL = {T: float(np.finfo(NP[T]).smallest_normal) for T in NP}


def is_value(x: float, T: str) -> bool:
    """Is ``x`` a finite ``T`` value (numpy's conversion is exact exactly then)?"""
    return math.isfinite(x) and abs(x) <= MAX[T] and float(NP[T](x)) == x


def above(x: float, T: str) -> float:
    return float(np.nextafter(NP[T](x), NP[T](np.inf)))


def below(x: float, T: str) -> float:
    return float(np.nextafter(NP[T](x), NP[T](-np.inf)))


def assert_up(result: float, exact: Fraction, T: str) -> None:
    """``result`` is the smallest finite ``T`` value ``>= exact``."""
    assert type(result) is float and is_value(result, T)
    assert Fraction(result) >= exact
    if Fraction(result) != exact and result != -MAX[T]:
        assert Fraction(below(result, T)) < exact


def assert_down(result: float, exact: Fraction, T: str) -> None:
    """``result`` is the largest finite ``T`` value ``<= exact``."""
    assert type(result) is float and is_value(result, T)
    assert Fraction(result) <= exact
    if Fraction(result) != exact and result != MAX[T]:
        assert Fraction(above(result, T)) > exact


# ------------------------------------------------------------------ operands over the domain


def special_values(T: str) -> list[float]:
    """Zeros, subnormals, the normal threshold, around 1, the largest values; both signs."""
    tiny, normal, top = TINY[T], NORMAL[T], MAX[T]
    magnitudes = [
        0.0,
        tiny,
        2 * tiny,
        3 * tiny,
        normal - tiny,
        normal,
        above(normal, T),
        0.1 if T == "f64" else float(np.float32(0.1)),
        0.5,
        below(1.0, T),
        1.0,
        above(1.0, T),
        3.0,
        2.0 ** (53 if T == "f64" else 24),
        below(top, T),
        top,
    ]
    return magnitudes + [-m for m in magnitudes]


def operands(T: str) -> st.SearchStrategy:
    """Finite ``T`` values of every kind, each kind drawn often."""
    width = 64 if T == "f64" else 32
    precision, lowest = (53, -1074) if T == "f64" else (24, -149)
    highest = (1024 if T == "f64" else 128) - precision
    top = MAX[T]
    scaled = st.builds(
        math.ldexp,
        st.integers(-(1 << precision) + 1, (1 << precision) - 1),
        st.integers(lowest, highest),
    )
    subnormal = st.builds(
        lambda m: math.ldexp(m, lowest), st.integers(-(1 << (precision - 1)), 1 << (precision - 1))
    )
    near_top = st.builds(
        lambda k, sign: sign * (top - k * math.ldexp(1.0, highest)),
        st.integers(0, 1 << 12),
        st.sampled_from([1.0, -1.0]),
    )
    return st.one_of(
        st.sampled_from(special_values(T)),
        st.floats(allow_nan=False, allow_infinity=False, width=width),
        st.floats(-1.0, 1.0, width=width),
        scaled,
        subnormal,
        near_top,
    ).map(float)


typed_pairs = st.sampled_from(["f32", "f64"]).flatmap(
    lambda T: st.tuples(st.just(T), operands(T), operands(T))
)
typed_values = st.sampled_from(["f32", "f64"]).flatmap(lambda T: st.tuples(st.just(T), operands(T)))

BINARY = {
    "add": (inf_add, neg_inf_add, operator.add),
    "sub": (inf_sub, neg_inf_sub, operator.sub),
    "mul": (inf_mul, neg_inf_mul, operator.mul),
    "div": (inf_div, neg_inf_div, operator.truediv),
}


def _binary_examples(test):
    """Explicit operands at the edges for every binary operation."""
    cases = [
        ("f64", 0.1, 0.2),
        ("f64", -0.1, 0.2),
        ("f64", -0.0, -0.0),
        ("f64", 0.0, -0.0),
        ("f64", MAX["f64"], MAX["f64"]),
        ("f64", -MAX["f64"], MAX["f64"]),
        ("f64", MAX["f64"], 0.5),
        ("f64", TINY["f64"], 0.5),
        ("f64", -TINY["f64"], 3.0),
        ("f64", NORMAL["f64"], -TINY["f64"]),
        ("f64", 1.0, 3.0),
        ("f64", -1.0, 3.0),
        ("f64", 1.0, TINY["f64"]),
        ("f32", float(np.float32(0.1)), float(np.float32(0.2))),
        ("f32", -MAX["f32"], -MAX["f32"]),
        ("f32", MAX["f32"], 2.0),
        ("f32", TINY["f32"], 0.5),
        ("f32", -TINY["f32"], 3.0),
        ("f32", 1.0, 3.0),
        ("f32", -1.0, 3.0),
    ]
    for case in cases:
        test = example(args=case)(test)
    return test


@pytest.mark.parametrize("name", BINARY)
@given(args=typed_pairs)
@_binary_examples
def test_binary_direction(name, args):
    up, down, exact_op = BINARY[name]
    T, a, b = args
    if name == "div" and b == 0:
        for op in (up, down):
            with pytest.raises(ArithmeticOverflowError, match="by zero"):
                op(a, b, T)
        return
    exact = exact_op(Fraction(a), Fraction(b))
    if abs(exact) > Fraction(MAX[T]):
        for op in (up, down):
            with pytest.raises(ArithmeticOverflowError) as err:
                op(a, b, T)
            assert err.value.parameter == op.__name__
        return
    assert_up(up(a, b, T), exact, T)
    assert_down(down(a, b, T), exact, T)


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("T", ["f32", "f64"])
@pytest.mark.parametrize("infinite", [math.inf, -math.inf, math.nan])
def test_binary_ops_are_undefined_at_infinity_and_nan(name, T, infinite):
    up, down, _ = BINARY[name]
    for op in (up, down):
        with pytest.raises(ArithmeticOverflowError) as err:
            op(infinite, 1.0, T)
        assert err.value.parameter == "lhs"
        with pytest.raises(ArithmeticOverflowError) as err:
            op(1.0, infinite, T)
        assert err.value.parameter == "rhs"


# ------------------------------------------------------------------ sqrt


@given(args=typed_values)
@example(args=("f64", 2.0))
@example(args=("f64", 0.1))
@example(args=("f64", -0.0))
@example(args=("f64", TINY["f64"]))
@example(args=("f64", 2 * TINY["f64"]))
@example(args=("f64", MAX["f64"]))
@example(args=("f32", 2.0))
@example(args=("f32", TINY["f32"]))
@example(args=("f32", MAX["f32"]))
@example(args=("f64", -1.0))
@example(args=("f64", -TINY["f64"]))
def test_sqrt_direction(args):
    T, x = args
    if x < 0:
        for op in (inf_sqrt, neg_inf_sqrt):
            with pytest.raises(ArithmeticOverflowError, match="negative"):
                op(x, T)
        return
    up, down = inf_sqrt(x, T), neg_inf_sqrt(x, T)
    square = Fraction(x)
    # compare squares: for r >= 0, r >= sqrt(s) iff r*r >= s
    assert is_value(up, T) and is_value(down, T) and up >= 0 and down >= 0
    assert Fraction(up) ** 2 >= square >= Fraction(down) ** 2
    if Fraction(up) ** 2 != square:
        assert Fraction(below(up, T)) ** 2 < square
        assert Fraction(above(down, T)) ** 2 > square
        assert up == above(down, T)
    else:
        assert up == down


@pytest.mark.parametrize("T", ["f32", "f64"])
@pytest.mark.parametrize("op", [inf_sqrt, neg_inf_sqrt, inf_log2, neg_inf_log2])
def test_unary_ops_are_undefined_at_infinity_and_nan(op, T):
    for bad in (math.inf, -math.inf, math.nan):
        with pytest.raises(ArithmeticOverflowError) as err:
            op(bad, T)
        assert err.value.parameter == "x"


# ------------------------------------------------------------------ log2

_WP = 400


def log2_enclosure(x: float) -> tuple[Fraction, Fraction]:
    """Rationals ``lo < log2(x) < hi`` from mpmath at 400 bits, widened by 2**-380 relative
    (far more than mpmath's error), computed without ``certdp.numeric``."""
    with mpmath.workprec(_WP):
        y = mpmath.log(mpmath.mpf(x), 2)
        man, exp = y.man_exp  # the magnitude: man_exp drops the sign
        sign = int(mpmath.sign(y))
    centre = sign * Fraction(int(man)) * Fraction(2) ** int(exp)
    radius = abs(centre) / (1 << 380) + Fraction(1, 1 << 400)
    return centre - radius, centre + radius


def _log2_check(T: str, x: float):
    if x <= 0:
        for op in (inf_log2, neg_inf_log2):
            with pytest.raises(ArithmeticOverflowError, match="x > 0"):
                op(x, T)
        return
    up, down = inf_log2(x, T), neg_inf_log2(x, T)
    mantissa, exponent = math.frexp(x)
    if mantissa == 0.5:  # a power of two: the logarithm is the integer exponent - 1
        assert up == down == exponent - 1
        return
    lo, hi = log2_enclosure(x)
    assert is_value(up, T) and is_value(down, T)
    # up >= log2(x): it lies above the whole enclosure; and below(up) < log2(x)
    assert Fraction(up) >= hi and Fraction(below(up, T)) <= lo
    assert Fraction(down) <= lo and Fraction(above(down, T)) >= hi
    # the sign of the logarithm is the sign of x - 1
    assert (up < 0) == (down < 0) == (x < 1)


@given(args=typed_values)
@example(args=("f64", 0.1))
@example(args=("f64", 0.75))
@example(args=("f64", below(1.0, "f64")))
@example(args=("f64", above(1.0, "f64")))
@example(args=("f64", TINY["f64"] * 3))
@example(args=("f64", NORMAL["f64"] * 1.5))
@example(args=("f64", MAX["f64"]))
@example(args=("f64", -0.5))
@example(args=("f64", -0.0))
@example(args=("f32", float(np.float32(0.1))))
@example(args=("f32", below(1.0, "f32")))
@example(args=("f32", TINY["f32"] * 3))
@example(args=("f32", MAX["f32"]))
def test_log2_direction(args):
    _log2_check(*args)


def test_log2_of_one_tenth_regression():
    """Issue 10: the sign of mpmath's mantissa was lost below 1 (``inf_log2(0.1)`` was +3.32)."""
    exact = math.log2(0.1)  # -3.3219280948873622...
    assert inf_log2(0.1) <= -3.32 and neg_inf_log2(0.1) <= -3.32
    assert neg_inf_log2(0.1) <= exact <= inf_log2(0.1)
    assert inf_log2(0.1) == float.fromhex("-0x1.a934f0979a371p+1")
    assert neg_inf_log2(0.1) == float.fromhex("-0x1.a934f0979a372p+1")
    _log2_check("f64", 0.1)
    _log2_check("f32", float(np.float32(0.1)))


# ------------------------------------------------------------------ casts


def exact_numbers() -> st.SearchStrategy:
    """Exact finite numbers of every size and sign: ints, floats, Fractions, dyadics."""
    return st.one_of(
        st.sampled_from(
            [0, -0.0, 2**53 - 1, 2**53, 2**53 + 1, 2**63, 2**64, -(2**64), 2**1024, -(2**1024)]
            + special_values("f64")
            + [Fraction(1, 3), Fraction(-1, 3), Fraction(1, 10**400), Fraction(-(10**400), 7)]
        ),
        st.integers(-(1 << 1100), 1 << 1100),
        st.floats(allow_nan=False, allow_infinity=False),
        st.fractions(),
        st.builds(
            lambda n, d, e: Fraction(n, d) * Fraction(2) ** e,
            st.integers(-(1 << 80), 1 << 80),
            st.integers(1, 1 << 80),
            st.integers(-1200, 1100),
        ),
    )


@pytest.mark.parametrize("T", ["f32", "f64"])
@given(value=exact_numbers())
@example(value=Fraction(MAX["f64"]) + 1)
@example(value=Fraction(MAX["f32"]) + 1)
@example(value=Fraction(TINY["f64"]) / 2)
@example(value=-Fraction(TINY["f32"]) / 2)
def test_cast_direction(T, value):
    exact = Fraction(value)
    if abs(exact) > Fraction(MAX[T]):
        for op in (inf_cast, neg_inf_cast):
            with pytest.raises(ArithmeticOverflowError) as err:
                op(value, T)
            assert err.value.parameter == op.__name__
        return
    assert_up(inf_cast(value, T), exact, T)
    assert_down(neg_inf_cast(value, T), exact, T)


@pytest.mark.parametrize("T", ["f32", "f64"])
@pytest.mark.parametrize("op", [inf_cast, neg_inf_cast])
def test_casts_are_undefined_at_infinity_and_nan(op, T):
    for bad in (math.inf, -math.inf, math.nan, np.float32(np.inf)):
        with pytest.raises(ArithmeticOverflowError) as err:
            op(bad, T)
        assert err.value.parameter == "value"
