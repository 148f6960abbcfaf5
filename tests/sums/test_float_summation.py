"""The float summation strategies: names, the trees they compute, their relaxation terms and
their overflow predicates (src/certdp/transformations/_summation/float_summation.py)."""

import math
import sys
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from certdp.core.errors import ArithmeticOverflowError, MakeTransformationError
from certdp.numeric import inf_add, round_rational, ulp
from certdp.transformations._summation.float_summation import (
    FloatSummation,
    _pairwise_plan,
    can_float_sum_overflow,
    exact_rational_sum,
    float_sum,
    overflow_possible,
    pairwise_tree_sum,
    parse_summation,
    saturating_float_sum,
    sum_error,
    sum_relaxation,
)

MAX64 = sys.float_info.max
MAX32 = float(np.finfo(np.float32).max)
STRATEGIES = [f"{a}<{T}>" for a in ("Sequential", "Pairwise", "Exact") for T in ("f32", "f64")]


def lcg_values(n, scale=1.0, seed=1, signed=True):
    """Deterministic floats in [-scale, scale] (or [0, scale]) from an inline LCG."""
    state, out = seed, []
    for _ in range(n):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        fraction = (state >> 11) / 2**53
        out.append(scale * (2 * fraction - 1 if signed else fraction))
    return out


def recursive_pairwise(values, add):
    """The textbook recursion: sum(v) = sum(v[:m]) + sum(v[m:]), m = len(v) // 2."""
    if len(values) == 0:
        return 0.0
    if len(values) == 1:
        return values[0]
    middle = len(values) // 2
    return add(recursive_pairwise(values[:middle], add), recursive_pairwise(values[middle:], add))


def add64(a, b):
    return a + b


def add32(a, b):
    return np.float32(np.float32(a) + np.float32(b))


# -- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize("S", STRATEGIES)
def test_every_strategy_parses(S):
    summation = parse_summation(S)
    assert str(summation) == S
    assert summation.mantissa_bits == (52 if S.endswith("f64>") else 23)


def test_generic_strategy_takes_the_type_of_the_bounds():
    assert parse_summation("Pairwise<T>", (0.0, 1.0)) == FloatSummation("Pairwise", "f64")
    assert parse_summation("Sequential<T>", (np.float32(0), np.float32(1))).T == "f32"
    with pytest.raises(MakeTransformationError, match="bounds:.*must be floats"):
        parse_summation("Pairwise<T>", (0, 1))


@pytest.mark.parametrize("S", ["Kahan<f64>", "Pairwise<i32>", "pairwise<f64>", "Exact", 3, None])
def test_unknown_strategies_are_refused_by_name(S):
    with pytest.raises(MakeTransformationError, match="^S: unknown summation strategy") as error:
        parse_summation(S)
    assert error.value.parameter == "S"


# -- the trees ---------------------------------------------------------------------------------


def _plan_by_recursion(n):
    """First records of the nodes at depth ceil(log2 n) - 1, found by recursing."""
    depth = (n - 1).bit_length()
    firsts = []

    def visit(start, size, level):
        if level == depth - 1:
            firsts.append(start)
            return
        left = size // 2
        if left:
            visit(start, left, level + 1)
        else:  # a single record continues down as its own node
            pass
        visit(start + left, size - left, level + 1)

    visit(0, n, 0)
    return firsts


@pytest.mark.parametrize("n", [*range(2, 70), 100, 1000, 1023, 1025, 12345, 2**16 + 3])
def test_node_sizes_formula_matches_the_recursion(n):
    first, pairs, take, lone = _pairwise_plan(n)
    assert first.tolist() == _plan_by_recursion(n)
    sizes = np.diff(np.append(first, n))
    assert set(sizes.tolist()) <= {1, 2} and (sizes == 2).sum() == len(pairs)
    singles = np.flatnonzero(sizes == 1)
    assert (first[singles] == lone).all()
    # a pair node takes the sum of its own two records; a single node its record
    starts = np.concatenate([np.arange(0, 2 * (n // 2), 2), np.arange(1, n - 1, 2)])
    assert (starts[take[pairs]] == first[pairs]).all()
    assert (take[singles] == len(starts) + np.arange(len(singles))).all()


@pytest.mark.parametrize("n", [*range(0, 40), 64, 100, 127, 1000, 4097, 12345])
def test_vectorised_pairwise_is_the_recursive_tree_bit_for_bit(n):
    # values of wildly different magnitudes make every change of evaluation order visible
    values = [v * 10.0 ** (i % 17 - 8) for i, v in enumerate(lcg_values(n, seed=n + 7))]
    assert (
        pairwise_tree_sum(np.array(values)).hex() == float(recursive_pairwise(values, add64)).hex()
    )
    single = [float(np.float32(v)) for v in values]
    got = pairwise_tree_sum(np.array(single, dtype=np.float32))
    assert got.dtype == np.float32
    assert float(got).hex() == float(recursive_pairwise(single, add32)).hex()


def test_pairwise_is_not_numpys_sum():
    # np.sum blocks its pairwise reduction differently: the tree matters
    values = np.array([1.0, 2.0**53, 1.0, -(2.0**53)] * 64 + [1.0])
    ours = pairwise_tree_sum(values)
    assert ours == recursive_pairwise(values.tolist(), add64)
    assert any(
        pairwise_tree_sum(np.array(v)) != np.sum(np.array(v))
        for v in (
            [x * 10.0 ** (i % 23 - 11) for i, x in enumerate(lcg_values(n, seed=n))]
            for n in range(300, 340)
        )
    )


@pytest.mark.parametrize("n", [0, 1, 2, 3, 17, 1000])
def test_sequential_is_strictly_left_to_right(n):
    values = [v * 10.0 ** (i % 13 - 6) for i, v in enumerate(lcg_values(n, seed=3 * n + 1))]
    expected = -0.0
    for value in values:
        expected += value
    assert float_sum(FloatSummation("Sequential", "f64"), values).hex() == expected.hex()
    single = [float(np.float32(v)) for v in values]
    expected32 = np.float32(-0.0)
    for value in single:
        expected32 = np.float32(expected32 + np.float32(value))
    assert float_sum(FloatSummation("Sequential", "f32"), single).hex() == float(expected32).hex()


def test_f32_sums_are_computed_in_f32():
    tiny = 2.0**-24  # half an ulp of 1 in f32: each addition ties and rounds to even
    data = [1.0, tiny, tiny, tiny, tiny]
    assert float_sum(FloatSummation("Sequential", "f32"), data) == 1.0
    assert float_sum(FloatSummation("Sequential", "f64"), data) == 1.0 + 4 * tiny
    assert float_sum(FloatSummation("Pairwise", "f32"), [1.0, tiny]) == 1.0
    assert float_sum(FloatSummation("Exact", "f32"), data) == float(np.float32(1.0 + 4 * tiny))


def test_signed_zeros_follow_opendp():
    sequential, pairwise = FloatSummation("Sequential", "f64"), FloatSummation("Pairwise", "f64")
    assert math.copysign(1, float_sum(sequential, [])) == -1  # Rust's Sum starts at -0.0
    assert math.copysign(1, float_sum(sequential, [-0.0])) == -1
    assert math.copysign(1, saturating_float_sum(sequential, [-0.0])) == 1  # fold from +0.0
    assert math.copysign(1, float_sum(pairwise, [])) == 1
    assert math.copysign(1, float_sum(pairwise, [-0.0])) == -1


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=40))
def test_exact_sum_is_the_rational_sum(values):
    assert exact_rational_sum(np.array(values, dtype=np.float64)) == sum(map(Fraction, values))
    for T in ("f32", "f64"):
        data = [float(np.float32(v)) for v in values if abs(v) <= MAX32] if T == "f32" else values
        exact = sum(map(Fraction, data))
        summation = FloatSummation("Exact", T)
        try:
            rounded = round_rational(exact, T, "nearest")
        except ArithmeticOverflowError:
            assert abs(saturating_float_sum(summation, data)) == summation.max
            continue
        assert float_sum(summation, data) == rounded


def test_exact_sum_of_extremes_and_subnormals():
    values = [5e-324, MAX64, -MAX64, 5e-324, -0.0, 2.0**-1022, 1e300, -1e300]
    assert exact_rational_sum(np.array(values)) == sum(map(Fraction, values))
    assert float_sum(FloatSummation("Exact", "f64"), values) == 2.0**-1022 + 1e-323
    # a rounded sum past MAX: refused by the checked sums, saturated by the ordered ones
    assert saturating_float_sum(FloatSummation("Exact", "f64"), [MAX64, MAX64]) == MAX64
    assert saturating_float_sum(FloatSummation("Exact", "f64"), [-MAX64, -MAX64]) == -MAX64


def test_saturating_sums_clamp_every_addition():
    big = [MAX64, MAX64, -MAX64]
    assert saturating_float_sum(FloatSummation("Sequential", "f64"), big) == 0.0
    assert saturating_float_sum(FloatSummation("Pairwise", "f64"), big) == MAX64  # MAX + 0
    big32 = [MAX32, MAX32, MAX32, -MAX32]
    assert saturating_float_sum(FloatSummation("Sequential", "f32"), big32) == 0.0
    assert saturating_float_sum(FloatSummation("Pairwise", "f32"), big32) == MAX32 - MAX32 + MAX32
    assert math.isinf(float_sum(FloatSummation("Pairwise", "f64"), big[:2]))


# -- relaxation --------------------------------------------------------------------------------


def exact_error(summation, n, magnitude):
    """The proof's error formula, evaluated with 60 digits by mpmath."""
    k = summation.mantissa_bits
    with mpmath.workdps(60):
        n_, m_ = mpmath.mpf(n), mpmath.mpf(magnitude)
        if summation.algorithm == "Sequential":
            return n_**2 * m_ / mpmath.mpf(2) ** k
        if summation.algorithm == "Pairwise":
            u = mpmath.log(n_, 2) / mpmath.mpf(2) ** k
            return u / (1 - u) * n_ * m_
        return n_ * m_ / mpmath.mpf(2) ** (k + 1)


SIZES = [1, 2, 3, 5, 10, 100, 1000, 12345, 999_999, 2**20, 10**6, 2**23 - 1]


@pytest.mark.parametrize("S", STRATEGIES)
def test_relaxation_rounds_up_by_a_few_ulps_at_most(S):
    summation = parse_summation(S)
    for n in SIZES:
        for bounds in [(-10.0, 10.0), (0.0, 1.0), (-2.5, 7.25), (-(2.0**-60), 0.0), (1.0, 2.0**60)]:
            magnitude = max(abs(bounds[0]), bounds[1])
            relaxation = sum_relaxation(summation, n, *bounds)
            with mpmath.workdps(60):
                exact = 2 * exact_error(summation, n, magnitude)
                assert mpmath.mpf(relaxation) >= exact, (S, n, bounds)
                if exact > 0:
                    assert mpmath.mpf(relaxation) - exact <= 8 * ulp(relaxation, summation.T)
            assert relaxation == 2 * sum_error(summation, n, *bounds) or math.isclose(
                relaxation, 2 * sum_error(summation, n, *bounds), rel_tol=2.0**-20
            )


def test_the_figures_of_the_user_guide():
    pairwise = parse_summation("Pairwise<f64>")
    assert sum_relaxation(pairwise, 1000, -10.0, 10.0) == 4.4256972685117694e-11
    assert sum_relaxation(pairwise, 100, -10.0, 0.0) == 2.9504648456745105e-12
    assert inf_add(20.0, sum_relaxation(pairwise, 1000, -10.0, 10.0)) == 20.00000000004426


def test_relaxation_refusals():
    with pytest.raises(ArithmeticOverflowError):  # log2(0)
        sum_relaxation(parse_summation("Pairwise<f64>"), 0, 0.0, 1.0)
    assert sum_relaxation(parse_summation("Sequential<f64>"), 0, 0.0, 1.0) == 0.0
    assert sum_relaxation(parse_summation("Exact<f64>"), 0, 0.0, 1.0) == 0.0
    with pytest.raises(MakeTransformationError, match="^size: 16777217 is not exactly a value"):
        sum_relaxation(parse_summation("Sequential<f32>"), 2**24 + 1, 0.0, 1.0)


def test_exact_relaxation_is_much_smaller():
    for n in (10, 1000, 10**6):
        exact = sum_relaxation(parse_summation("Exact<f64>"), n, -10.0, 10.0)
        pairwise = sum_relaxation(parse_summation("Pairwise<f64>"), n, -10.0, 10.0)
        assert exact * math.log2(n) <= pairwise


# -- overflow predicates -----------------------------------------------------------------------


def test_sequential_small_magnitude_shortcut():
    sequential = parse_summation("Sequential<f64>")
    limit = 2.0**970  # ulp(MAX) / 2
    below = math.nextafter(limit, 0.0)
    assert not overflow_possible(sequential, 2**62, 0.0, below)
    assert overflow_possible(sequential, 2**62, 0.0, limit)
    assert not overflow_possible(sequential, 10, 0.0, limit)  # P * n = 10 * 2^970 is finite


def test_pairwise_small_magnitude_shortcut():
    pairwise = parse_summation("Pairwise<f64>")
    n = 2**60
    limit = 2.0**971 / n
    assert not overflow_possible(pairwise, n, -math.nextafter(limit, 0.0), 0.0)
    assert not overflow_possible(pairwise, n, 0.0, limit)  # P * n = 2^971 is finite
    assert overflow_possible(pairwise, n, 0.0, 2.0**965)
    assert overflow_possible(pairwise, 0, 0.0, 1.0)  # OpenDP divides by n = 0 and refuses


@pytest.mark.parametrize(
    "S", ["Sequential<f64>", "Pairwise<f64>", "Sequential<f32>", "Pairwise<f32>"]
)
@pytest.mark.parametrize("n", [1, 2, 3, 10, 1000])
def test_power_of_two_product_boundary(S, n):
    summation = parse_summation(S)
    largest = MAX64 if summation.T == "f64" else MAX32
    quotient = Fraction(largest) / n
    exponent = quotient.numerator.bit_length() - quotient.denominator.bit_length()
    if Fraction(2) ** exponent > quotient:
        exponent -= 1
    power = math.ldexp(1.0, exponent)  # the largest power of two P with P * n <= MAX
    assert not overflow_possible(summation, n, -power, power)
    assert overflow_possible(summation, n, 0.0, math.nextafter(power, math.inf))
    # accepted: every sum of n values in [-P, P] stays finite, even all at the bound
    for data in ([power] * n, [-power] * n):
        assert math.isfinite(float_sum(summation, data))


def test_exact_predicate_is_the_product():
    exact = parse_summation("Exact<f64>")
    assert not overflow_possible(exact, 2, 0.0, MAX64 / 2)
    assert overflow_possible(exact, 2, 0.0, math.nextafter(MAX64 / 2, math.inf))
    assert not overflow_possible(exact, 1, -MAX64, MAX64)


def test_make_sums_question():
    assert can_float_sum_overflow(10, (0.0, 1e308), "Pairwise<f64>")
    assert not can_float_sum_overflow(2**20, (-10.0, 10.0), "Pairwise<f64>")
    with pytest.raises(MakeTransformationError, match="^S:"):
        can_float_sum_overflow(10, (0.0, 1.0), "Kahan<f64>")


def test_exact_f32_rounds_once():
    """1 + 2^-24 + 2^-80 lies just above the midpoint between 1 and 1 + 2^-23 in f32: rounded
    once it is 1 + 2^-23; rounded to f64 first it becomes the tie 1 + 2^-24, which rounds to
    the even 1.0."""
    data = [1.0, 2.0**-24, 2.0**-80]
    double_rounded = float(np.float32(math.fsum(data)))
    assert double_rounded == 1.0
    exact32 = FloatSummation("Exact", "f32")
    assert float_sum(exact32, data) == 1.0 + 2.0**-23
    assert saturating_float_sum(exact32, data) == 1.0 + 2.0**-23
    negated = [-value for value in data]
    assert float_sum(exact32, negated) == -(1.0 + 2.0**-23)


def _pairwise_sizes(T):
    """Sizes that are values of T at every binade boundary: 2^e - 1, 2^e, 2^e + 1."""
    emax, k = (1023, 52) if T == "f64" else (127, 23)
    sizes = set(range(2, 70))
    for e in range(2, emax + 1):
        sizes.update({2**e - 1, 2**e, 2**e + 1})
    return sorted(n for n in sizes if n <= 2 ** (k + 1) or n & (n - 1) == 0)


@pytest.mark.parametrize("T", ["f32", "f64"])
def test_pairwise_error_covers_the_executed_tree_for_every_binade(T):
    """sum_error >= gamma_D * n * M with D = ceil(log2 n), u = 2^-(k+1), the bound of the tree
    actually executed, exactly (Fractions) for sizes in every binade up to 2^emax."""
    summation = FloatSummation("Pairwise", T)
    u = Fraction(1, 2 ** (summation.mantissa_bits + 1))
    for n in _pairwise_sizes(T):
        depth = (n - 1).bit_length()
        assert depth < 2 * math.log2(n)
        gamma = depth * u / (1 - depth * u)
        assert Fraction(sum_error(summation, n, -1.0, 1.0)) >= gamma * n


def test_pairwise_error_refuses_a_non_positive_denominator(monkeypatch):
    """The proof uses inf_log2 only as an upper bound: were it ever >= 2^k, the error would
    be refused, never returned negative."""
    import certdp.transformations._summation.float_summation as module

    monkeypatch.setattr(module, "inf_log2", lambda n, T: 2.0**53)
    with pytest.raises(ArithmeticOverflowError, match="^size: log2"):
        sum_error(FloatSummation("Pairwise", "f64"), 10, 0.0, 1.0)
