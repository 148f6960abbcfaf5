"""The exact samplers: exhaustive checks of the Bernoulli samplers, exact checks of the
arithmetic helpers, and goodness-of-fit tests (chi-square, KS at 1e-6) of every sampler
against its exact distribution."""

from __future__ import annotations

import hashlib
import math
import os
import threading
from collections import deque
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy import stats

from certdp.core.errors import DPError, FailedFunctionError
from certdp.numeric import is_representable, round_rational
from certdp.samplers import (
    EntropySource,
    bernoulli_exp_at_most_one,
    bernoulli_exp_ratio,
    bernoulli_ratio,
    discrete_laplace_batch_sampler,
    discrete_laplace_sampler,
    discrete_laplace_Z2k_sampler,
    entropy_source,
    exp_digits,
    exp_neg_digits,
    exp_neg_enclosure,
    geometric_batch_by_inversion,
    geometric_by_inversion,
    geometric_by_trials,
    geometric_exp_sampler,
    grid_point_to_float,
    nearest_grid_index,
    sample_bernoulli_exp,
    sample_bernoulli_rational,
    sample_discrete_laplace,
    sample_discrete_laplace_Z2k,
    sample_geometric_exp,
    sample_uniform_below,
    sample_uniform_bits,
    threshold_table,
)
from certdp.samplers import discrete_laplace_z2k as z2k_module

from .stats import (
    SIGNIFICANCE,
    chi_square_pvalue,
    discrete_laplace_cdf,
    discrete_laplace_pmf,
    geometric_cdf,
    geometric_pmf,
    ks_pvalue,
)

N = 20_000


# --- scripted randomness: exhaustive enumeration of bit strings -------------------------------


class NeedMoreBits(Exception):
    pass


class ScriptedSource(EntropySource):
    """Serves the given bits (most significant first), then raises NeedMoreBits."""

    def __init__(self, bits):
        super().__init__()
        self.script = list(bits)
        self.used = 0

    def bit(self) -> int:
        if self.used >= len(self.script):
            raise NeedMoreBits
        self.used += 1
        return self.script[self.used - 1]

    def bits(self, n: int) -> int:
        value = 0
        for _ in range(n):
            value = (value << 1) | self.bit()
        return value


def exact_law(sampler, depth: int):
    """Run ``sampler(source)`` on every bit string up to ``depth`` bits: returns the exact
    probability of each outcome reached and the probability mass left unexplored."""
    law, unexplored = {}, Fraction(0)
    queue = deque([()])
    while queue:
        prefix = queue.popleft()
        try:
            outcome = sampler(ScriptedSource(prefix))
        except NeedMoreBits:
            if len(prefix) >= depth:
                unexplored += Fraction(1, 2 ** len(prefix))
            else:
                queue.extend([prefix + (0,), prefix + (1,)])
            continue
        law[outcome] = law.get(outcome, Fraction(0)) + Fraction(1, 2 ** len(prefix))
    return law, unexplored


@pytest.mark.parametrize(
    "n, d", [(1, 3), (2, 3), (5, 7), (0, 5), (5, 5), (1, 2), (3, 8), (13, 1000)]
)
def test_bernoulli_ratio_is_exact(n, d):
    law, unexplored = exact_law(lambda source: bernoulli_ratio(source, n, d), depth=40)
    assert unexplored <= Fraction(1, 2**39)
    assert law.get(True, 0) <= Fraction(n, d) <= law.get(True, 0) + unexplored


@pytest.mark.parametrize(
    "x", [Fraction(0), Fraction(1, 2), Fraction(1), Fraction(1, 3), Fraction(7, 3)]
)
def test_bernoulli_exp_is_exact(x):
    law, unexplored = exact_law(
        lambda source: bernoulli_exp_ratio(source, x.numerator, x.denominator), depth=20
    )
    assert unexplored < 1e-2
    with mpmath.workdps(50):
        target = mpmath.exp(-mpmath.mpf(x.numerator) / x.denominator)
        low = (
            mpmath.mpf(law.get(True, Fraction(0)).numerator)
            / law.get(True, Fraction(1)).denominator
        )
        assert low <= target <= low + mpmath.mpf(unexplored.numerator) / unexplored.denominator


def test_bernoulli_exp_at_most_one_rejects_nothing_at_zero():
    law, unexplored = exact_law(lambda source: bernoulli_exp_at_most_one(source, 0, 7), depth=4)
    assert law == {True: 1} and unexplored == 0


# --- uniform bits ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 7, 10, 2**70 + 3])
def test_uniform_below_is_uniform(n):
    samples = np.array(
        [sample_uniform_below(n) % 7 if n > 10 else sample_uniform_below(n) for _ in range(N)]
    )
    bins = 7 if n > 10 else n
    if n > 10:  # residues mod 7 of a uniform on [0, n): exact probabilities
        expected = np.array([(n - r + 6) // 7 / n for r in range(7)])
    else:
        expected = np.full(n, 1 / n)
    observed = np.bincount(samples, minlength=bins)
    assert stats.chisquare(observed, expected * N).pvalue > SIGNIFICANCE


def test_uniform_bits_every_position_is_fair():
    samples = [sample_uniform_bits(12) for _ in range(N)]
    assert all(0 <= s < 4096 for s in samples)
    for position in range(12):
        ones = sum((s >> position) & 1 for s in samples)
        assert stats.binomtest(ones, N, 0.5).pvalue > SIGNIFICANCE


def test_uniform_bits_zero_and_large():
    assert sample_uniform_bits(0) == 0
    big = [sample_uniform_bits(200_000) for _ in range(3)]  # larger than a refill block
    assert len(set(big)) == 3 and all(0 <= b < 2**200_000 for b in big)


def test_each_thread_has_its_own_source():
    sources = []
    thread = threading.Thread(target=lambda: sources.append(entropy_source()))
    thread.start()
    thread.join()
    assert sources[0] is not entropy_source()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_forked_child_does_not_replay_the_parents_bytes():
    entropy_source().bits(8)  # the parent's block is now loaded
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.write(write, entropy_source().bits(256).to_bytes(32, "little"))
        os._exit(0)
    os.close(write)
    child = int.from_bytes(os.read(read, 32), "little")
    os.waitpid(pid, 0)
    assert child != entropy_source().bits(256)


# --- Bernoulli, geometric, discrete Laplace: goodness of fit ----------------------------------


@pytest.mark.parametrize("p", [Fraction(1, 3), Fraction(999, 1000), 0.25])
def test_bernoulli_rational_frequency(p):
    ones = sum(sample_bernoulli_rational(p) for _ in range(N))
    assert stats.binomtest(ones, N, float(p)).pvalue > SIGNIFICANCE


@pytest.mark.parametrize("x", [Fraction(1, 2), Fraction(5, 2), 3])
def test_bernoulli_exp_frequency(x):
    ones = sum(sample_bernoulli_exp(x) for _ in range(N))
    assert stats.binomtest(ones, N, math.exp(-float(x))).pvalue > SIGNIFICANCE


@pytest.mark.parametrize("x", [Fraction(1), Fraction(1, 3), Fraction(45, 4096), Fraction(7, 2)])
def test_geometric_by_inversion_fits(x):
    sampler = geometric_exp_sampler(x.numerator, x.denominator)
    assert hasattr(sampler, "table"), "expected the inversion algorithm"
    samples = [sampler(entropy_source()) for _ in range(N)]
    high = int(8 / float(x)) + 2
    assert chi_square_pvalue(samples, geometric_pmf(float(x)), range(0, high)) > SIGNIFICANCE
    assert ks_pvalue(samples, geometric_cdf(float(x))) > SIGNIFICANCE


def test_geometric_by_trials_fits():
    x = Fraction(1, 3)
    samples = [geometric_by_trials(entropy_source(), 1, 3) for _ in range(N // 2)]
    assert chi_square_pvalue(samples, geometric_pmf(float(x)), range(0, 26)) > SIGNIFICANCE


def test_geometric_switches_to_trials_for_tiny_ratios():
    sampler = geometric_exp_sampler(1, 10**6)
    assert not hasattr(sampler, "table")
    assert threshold_table(1, 10**6) is None


@pytest.mark.parametrize(
    "scale", [Fraction(1), Fraction(5, 2), Fraction(1, 3), Fraction(100), Fraction(10**6, 7)]
)
def test_discrete_laplace_fits_and_is_symmetric(scale):
    sampler = discrete_laplace_sampler(scale)
    samples = np.array([sampler(entropy_source()) for _ in range(N)])
    s = float(scale)
    if s <= 200:
        width = int(10 * s) + 3
        assert (
            chi_square_pvalue(samples, discrete_laplace_pmf(s), range(-width, width + 1))
            > SIGNIFICANCE
        )
    assert ks_pvalue(samples, discrete_laplace_cdf(s)) > SIGNIFICANCE
    positive, negative = int(np.sum(samples > 0)), int(np.sum(samples < 0))
    assert stats.binomtest(positive, positive + negative, 0.5).pvalue > SIGNIFICANCE


def test_discrete_laplace_zero_scale_is_exact():
    assert {sample_discrete_laplace(0) for _ in range(100)} == {0}


# --- exact arithmetic helpers -----------------------------------------------------------------


@pytest.mark.parametrize(
    "n, d", [(1, 1), (1, 3), (45, 1), (1, 4096), (7, 2), (10**6, 3), (2**80 + 1, 2**79)]
)
def test_exp_neg_enclosure_and_digits(n, d):
    with mpmath.workdps(400):
        exact = mpmath.exp(-mpmath.mpf(n) / d)
        for precision in (1, 64, 300):
            lo, hi = exp_neg_enclosure(n, d, precision)
            scaled = exact * mpmath.mpf(2) ** precision
            assert lo <= scaled <= hi and hi - lo <= 2
            assert exp_neg_digits(n, d, precision) == int(mpmath.floor(scaled))


@pytest.mark.parametrize("n, d", [(1, 1), (1, 3), (45, 4096), (100, 1)])
def test_threshold_table_entries(n, d):
    table = threshold_table(n, d)
    assert table[-1] == 0 and all(entry > 0 for entry in table[:-1])
    assert table == [exp_neg_digits(v * n, d, 64) for v in range(1, len(table) + 1)]


def test_inversion_refines_when_64_digits_cannot_decide():
    """Force the first 64 digits of W to equal the tabulated digits of exp(-3): the sampler
    must then read further digits, and its answer must be the exact count."""
    table = threshold_table(1, 1)
    ascending = [-entry for entry in table]
    for case in range(20):
        digest = hashlib.sha256(str(case).encode()).digest()  # fixed, varied test scripts
        tail = [(byte >> i) & 1 for byte in digest[:24] for i in range(8)]
        script = [int(c) for c in format(table[2], "064b")] + tail
        source = ScriptedSource(script)
        result = geometric_by_inversion(source, 1, 1, table, ascending)
        w = Fraction(int("".join(map(str, script[: source.used])), 2), 2**source.used)
        with mpmath.workdps(100):
            # the revealed digits decide, so any W with this prefix gives the same count
            for candidate in (
                w,
                w + Fraction(1, 2**source.used) - Fraction(1, 2 ** (source.used + 60)),
            ):
                value = mpmath.mpf(candidate.numerator) / candidate.denominator
                count = sum(1 for v in range(1, 80) if value < mpmath.exp(-v))
                assert result == count


@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(-1074, 1023))
def test_nearest_grid_index_is_exact_with_ties_up(x, k):
    exact = Fraction(x) / Fraction(2) ** k
    index = nearest_grid_index(x, k)
    assert index == math.floor(exact + Fraction(1, 2))
    assert abs(exact - index) <= Fraction(1, 2)


@pytest.mark.parametrize(
    "x, k, index",
    [(0.5, 0, 1), (-0.5, 0, 0), (2.5, 0, 3), (-2.5, 0, -2), (6.0, 2, 2), (-0.0, 0, 0)],
)
def test_nearest_grid_index_ties(x, k, index):
    assert nearest_grid_index(x, k) == index


@given(st.integers(-(2**1100), 2**1100), st.integers(-1200, 60), st.sampled_from(["f32", "f64"]))
def test_grid_point_to_float_is_nearest_rounding(index, k, T):
    exact = Fraction(index) * Fraction(2) ** k
    result = grid_point_to_float(index, k, T)
    try:
        expected = round_rational(exact, T)
    except DPError:  # IEEE rounding overflows
        expected = math.inf if index > 0 else -math.inf
    assert result.hex() == expected.hex()  # the same float, sign of zero included


def test_grid_point_to_float_at_the_overflow_boundary():
    max_f64 = Fraction(1.7976931348623157e308)
    half_ulp = Fraction(2) ** 970
    tie = int((max_f64 + half_ulp) * 2**3)  # exactly halfway to 2^1024: ties to even, overflows
    assert grid_point_to_float(tie, -3, "f64") == math.inf
    assert grid_point_to_float(-tie, -3, "f64") == -math.inf
    assert grid_point_to_float(tie - 1, -3, "f64") == 1.7976931348623157e308


# --- the grid sampler -------------------------------------------------------------------------


def test_z2k_outputs_are_rounded_grid_points(monkeypatch):
    """Record every exact grid point before the final rounding: it is an integer multiple of
    2^k, and the release is its nearest float."""
    seen = []
    original = z2k_module.grid_point_to_float

    def recording(index, k, T):
        assert isinstance(index, int)
        result = original(index, k, T)
        seen.append((index, k, T, result))
        return result

    monkeypatch.setattr(z2k_module, "grid_point_to_float", recording)
    for T, k, shift in [
        ("f64", -1074, 0.3),
        ("f64", -10, 12.5),
        ("f32", -149, 0.3),
        ("f32", -3, -7.0),
    ]:
        sampler = discrete_laplace_Z2k_sampler(Fraction(1), k, T)
        for _ in range(200):
            output = sampler(entropy_source(), shift)
            index, k_seen, _, rounded = seen[-1]
            assert output == rounded and k_seen == k
            assert output == round_rational(Fraction(index) * Fraction(2) ** k, T)
            assert is_representable(output, T)
            if k >= -10:  # grid points this coarse are floats: the output is the grid point
                assert Fraction(output) / Fraction(2) ** k == index


def test_z2k_distribution_on_a_coarse_grid():
    k, shift, scale = -2, 0.3, Fraction(1)  # grid 1/4; 0.3 rounds to index 1
    sampler = discrete_laplace_Z2k_sampler(scale, k, "f64")
    offsets = [int(sampler(entropy_source(), shift) * 4) - 1 for _ in range(N)]
    grid_scale = 4.0  # scale / 2^k in grid steps
    assert (
        chi_square_pvalue(offsets, discrete_laplace_pmf(grid_scale), range(-40, 41)) > SIGNIFICANCE
    )
    assert ks_pvalue(offsets, discrete_laplace_cdf(grid_scale)) > SIGNIFICANCE


def test_z2k_default_grid_matches_the_laplace_law():
    """On the finest grid the output is Laplace(shift, 1) up to 2^-1074: KS against the
    continuous law (the discretisation moves the cdf by less than 1e-300)."""
    assert abs(sample_discrete_laplace_Z2k(0.3, 1.0, -1074) - 0.3) < 60  # the public entry point
    sampler = discrete_laplace_Z2k_sampler(Fraction(1), -1074, "f64")
    samples = [sampler(entropy_source(), 0.3) for _ in range(N)]
    assert stats.kstest(samples, stats.laplace(loc=0.3, scale=1.0).cdf).pvalue > SIGNIFICANCE


def test_z2k_public_entry_takes_values_of_T():
    """A NumPy scalar is the value it denotes (certdp.core.types); a value of no f64 is not."""
    assert sample_discrete_laplace_Z2k(np.float32(0.1875), 0, -3, "f32") == 0.25  # tie: up
    assert sample_discrete_laplace_Z2k(np.float32(0.1875), 0, -3, "f64") == 0.25
    with pytest.raises(FailedFunctionError) as error:
        sample_discrete_laplace_Z2k(np.longdouble(1) / 3, 0, -3, "f64")
    assert error.value.parameter == "shift"


def test_z2k_zero_scale_rounds_only():
    assert sample_discrete_laplace_Z2k(0.3, 0, -10) == 0.2998046875
    assert sample_discrete_laplace_Z2k(-0.0, 0, -1074) == 0.0
    assert math.copysign(1, sample_discrete_laplace_Z2k(-0.0, 0, -1074)) == 1


# --- refused arguments --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, parameter",
    [
        (lambda: sample_bernoulli_rational(Fraction(4, 3)), "p"),
        (lambda: sample_bernoulli_rational(True), "p"),
        (lambda: sample_bernoulli_rational(math.nan), "p"),
        (lambda: sample_bernoulli_exp(-1), "x"),
        (lambda: sample_bernoulli_exp("1"), "x"),
        (lambda: sample_geometric_exp(0), "x"),
        (lambda: sample_discrete_laplace(-0.5), "scale"),
        (lambda: sample_discrete_laplace(math.inf), "scale"),
        (lambda: sample_discrete_laplace_Z2k(math.inf, 1, 0), "shift"),
        (lambda: sample_discrete_laplace_Z2k(0.1, 1, 0, "f32"), "shift"),
        (lambda: sample_discrete_laplace_Z2k(0.5, 1, 0.5), "k"),
        (lambda: sample_discrete_laplace_Z2k(0.5, 1, 0, "i32"), "T"),
        (lambda: sample_discrete_laplace_Z2k(0.5, -1, 0), "scale"),
        (lambda: sample_uniform_below(0), "n"),
        (lambda: sample_uniform_bits(-1), "n"),
    ],
)
def test_bad_sampler_arguments_raise_typed_errors(call, parameter):
    with pytest.raises(FailedFunctionError) as error:
        call()
    assert error.value.parameter == parameter


# --- the vectorised forms -----------------------------------------------------------------------


@pytest.mark.parametrize("scale", [Fraction(1), Fraction(5, 2), Fraction(1, 3)])
def test_batch_discrete_laplace_fits(scale):
    draws = discrete_laplace_batch_sampler(scale)(entropy_source(), N)
    assert draws.dtype == np.int64 and draws.shape == (N,)
    s = float(scale)
    width = int(10 * s) + 3
    assert (
        chi_square_pvalue(draws, discrete_laplace_pmf(s), range(-width, width + 1)) > SIGNIFICANCE
    )
    assert ks_pvalue(draws, discrete_laplace_cdf(s)) > SIGNIFICANCE
    positive, negative = int(np.sum(draws > 0)), int(np.sum(draws < 0))
    assert stats.binomtest(positive, positive + negative, 0.5).pvalue > SIGNIFICANCE


def test_batch_falls_back_to_one_by_one():
    big = discrete_laplace_batch_sampler(Fraction(10**6))(entropy_source(), 500)
    assert big.dtype == object and len(big) == 500 and all(type(z) is int for z in big)
    assert ks_pvalue(list(big), discrete_laplace_cdf(1e6)) > SIGNIFICANCE
    zero = discrete_laplace_batch_sampler(Fraction(0))(entropy_source(), 5)
    assert zero.tolist() == [0] * 5 and zero.dtype == np.int64


class ScriptedWords(EntropySource):
    """Serves scripted 64-bit words first (then real randomness)."""

    def __init__(self, words):
        super().__init__()
        self.script = list(words)

    def words(self, count):
        served, self.script = self.script[:count], self.script[count:]
        rest = super().words(count - len(served)) if count > len(served) else np.zeros(0, np.uint64)
        return np.concatenate([np.array(served, dtype=np.uint64), rest])


def test_batch_inversion_refines_undecided_words():
    table = threshold_table(1, 1)
    source = ScriptedWords([table[0], table[4], 0, 2**64 - 1])
    counts = geometric_batch_by_inversion(source, 1, 1, table, 4)
    assert counts[3] == 0  # W > exp(-1): no success
    with mpmath.workdps(60):
        for index, v in [(0, 1), (1, 5)]:
            # W starts with the 64 digits of exp(-v): it is below exp(-(v - 1)) and near exp(-v)
            assert counts[index] in (v - 1, v)
    assert counts[2] >= len(table) - 1  # W < 2^-64 < exp(-44)


@pytest.mark.parametrize("m", [0, 1, 7, 64, 200])
@pytest.mark.parametrize("d", [1, 3, 2**70 + 1])
def test_exp_neg_digits_at_the_all_zero_threshold_agrees_with_high_precision(m, d):
    import mpmath

    for n in (d * (m + 1) - 1, d * (m + 1), d * (m + 1) + 1, d * m):
        if n < 1:
            continue
        with mpmath.workdps(400):
            expected = int(mpmath.floor(mpmath.ldexp(mpmath.exp(-mpmath.mpf(n) / d), m)))
        assert exp_neg_digits(n, d, m) == expected, (n, d, m)


def test_exp_neg_digits_of_a_huge_exponent_is_zero_without_the_enclosure(monkeypatch):

    def refuse(*args):
        raise AssertionError("the enclosure of a huge n/d would take minutes")

    monkeypatch.setattr(exp_digits, "exp_neg_enclosure", refuse)
    assert exp_digits.exp_neg_digits(2**2000 + 1, 3, 64) == 0


def _enclosure_by_reduced_fractions(n, d, precision, guard=16):
    """The series of exp_digits.tex with reduced ``Fraction``s (certdp's earlier code of
    ``exp_neg_enclosure``): the integer version must compute the very same integers."""
    halvings = (n // d).bit_length()
    y = Fraction(n, d << halvings)
    work = precision + halvings + guard
    total, term, index = Fraction(1), Fraction(1), 0
    while True:
        index += 1
        term = term * y / index
        if term <= Fraction(1, 1 << (work + 2)):
            break
        total += -term if index & 1 else term
    lo = max(math.floor((total - term) * (1 << work)), 0)
    hi = math.ceil((total + term) * (1 << work))
    for _ in range(halvings):
        lo, hi = (lo * lo) >> work, -((-(hi * hi)) >> work)
    shift = work - precision
    return lo >> shift, -((-hi) >> shift)


@given(
    n=st.one_of(st.integers(0, 100), st.integers(0, 2**200)),
    d=st.one_of(st.integers(1, 100), st.integers(1, 2**200)),
    precision=st.integers(0, 400),
)
def test_exp_neg_enclosure_equals_the_reduced_fraction_series(n, d, precision):
    assume(n // d < 2**12)  # the reference is slow for many halvings
    assert exp_neg_enclosure(n, d, precision) == _enclosure_by_reduced_fractions(n, d, precision)


@given(n=st.integers(0, 2**70), d=st.integers(1, 2**70), precision=st.integers(0, 200))
def test_exp_neg_enclosure_encloses(n, d, precision):
    assume(n // d < 2**10)
    lo, hi = exp_neg_enclosure(n, d, precision)
    with mpmath.workdps(200 + 60):
        scaled = mpmath.exp(-mpmath.mpf(n) / d) * mpmath.mpf(2) ** precision
        assert lo <= scaled <= hi and 0 <= hi - lo <= 2


@given(n=st.integers(0, 2**64), d=st.integers(1, 2**64), precision=st.integers(0, 300))
def test_exp_neg_enclosure_series_ends_without_guard_bits(n, d, precision):
    """With no guard bits and x < 1 (no squaring), the result is the series' own floor and
    ceiling: a flipped rounding at series-lo or series-hi changes it."""
    assume(n < d)
    original = exp_digits.GUARD_BITS
    exp_digits.GUARD_BITS = 0
    try:
        ours = exp_neg_enclosure(n, d, precision)
    finally:
        exp_digits.GUARD_BITS = original
    assert ours == _enclosure_by_reduced_fractions(n, d, precision, guard=0)
