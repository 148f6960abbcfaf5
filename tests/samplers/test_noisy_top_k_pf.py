"""Permute-and-flip's side-by-side trials (samplers/noisy_top_k.tex, parts (F), (U), (O), (A)
and 1): the factors exp(-1) decided from one 32-bit integer each, their exact finish in Python,
the lazy random order, and rounds large enough to draw the order chunk by chunk, against the
exact probabilities."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import sympy
from scipy import integrate, stats

from certdp.samplers import noisy_top_k
from certdp.samplers.noisy_top_k import (
    FACTOR_RANGE,
    finish_unit_factors,
    first_accepted,
    lazy_order_chunk,
    peeled_selection,
    permute_and_flip_round,
    score_column,
    unit_factors_pass,
)
from certdp.samplers.uniform import entropy_source

from ..laplace.stats import SIGNIFICANCE
from .test_noisy_top_k import DRAWS, SCORES, chi_square, peeled_pmf, pf_round_pmf, sympy_values


class Scripted:
    """An entropy source whose 32-bit halves of ``words`` come from a script (then fresh
    random ones); every other draw is fresh."""

    def __init__(self, halves):
        self.halves = list(halves)
        self.real = entropy_source()

    def words(self, count):
        taken, self.halves = self.halves[: 2 * count], self.halves[2 * count :]
        fresh = self.real.words(count).view(np.uint32)[len(taken) :].tolist()
        return np.array(taken + fresh, dtype=np.uint32).view(np.uint64)

    def __getattr__(self, name):
        return getattr(self.real, name)


def factor_end(drawn):
    """The trial at which the factor exp(-1) fails, by its definition: K = min{k >= 2 :
    drawn >= FACTOR_RANGE / k!}; None when all of 1/2 .. 1/12 pass."""
    for k in range(2, 13):
        if drawn >= FACTOR_RANGE // math.factorial(k):
            return k
    return None


def test_one_draw_decides_a_factor_as_its_trials_do():
    edges = {FACTOR_RANGE // math.factorial(k) + d for k in range(2, 13) for d in (-1, 0, 1)}
    checked = 0
    for drawn in sorted(edges | {8, FACTOR_RANGE - 1}):
        end = factor_end(drawn)
        if end is None:
            continue
        # the second half of each word is not read (one running entry)
        assert unit_factors_pass(Scripted([drawn, 0]), np.array([1]))[0] == (end % 2 == 1)
        checked += 1
    assert checked >= 30
    # a draw from FACTOR_RANGE on is refused and the factor drawn again
    for refused in (FACTOR_RANGE, 2**32 - 1):
        lose, win = FACTOR_RANGE - 1, FACTOR_RANGE // 2 - 1  # ends at 1/2, at 1/3
        assert not unit_factors_pass(Scripted([refused, 0, lose, 0]), np.array([1]))[0]
        assert unit_factors_pass(Scripted([refused, 0, win, 0]), np.array([1]))[0]
    # two factors: both must pass
    win, lose = FACTOR_RANGE // 2 - 1, FACTOR_RANGE - 1
    assert unit_factors_pass(Scripted([win, 0, win, 0]), np.array([2]))[0]
    assert not unit_factors_pass(Scripted([win, 0, lose, 0]), np.array([2]))[0]
    # count 0 passes without a draw; entries read their own halves
    out = unit_factors_pass(Scripted([win, lose, win, 0, win, 0]), np.array([0, 1, 1, 2]))
    assert out.tolist() == [True, True, False, True]


def test_a_factor_whose_trials_up_to_one_twelfth_pass_is_finished_in_python(monkeypatch):
    calls = []

    def spy(source, trial, left):
        calls.append((trial, left))
        return left == 3

    monkeypatch.setattr(noisy_top_k, "finish_unit_factors", spy)
    win = FACTOR_RANGE // 2 - 1
    for drawn in range(8):
        calls.clear()
        out = unit_factors_pass(Scripted([win, drawn, drawn, 0]), np.array([4, 3]))
        # entry 0 wins its first factor, then its second draw (the first half of the next
        # word) falls below 8; entry 1 falls below 8 at once
        assert calls[0] == (13, 3) and (13, 3) in calls
        assert out.tolist() == [True, True]


def exact_finish(trial, left):
    """Pr[the factor passes | its trials up to 1/(trial - 1) passed] * exp(-(left - 1))."""
    passes = sum(
        Fraction(1, math.factorial(k - 1)) - Fraction(1, math.factorial(k))
        for k in range(trial, trial + 40)
        if k % 2 == 1
    ) * math.factorial(trial - 1)
    return float(passes) * math.exp(-(left - 1))


def test_finish_unit_factors_has_the_conditional_probability():
    source = entropy_source()
    draws = DRAWS
    for trial, left in ((2, 1), (2, 2), (3, 1), (13, 1), (4, 2)):
        hits = sum(finish_unit_factors(source, trial, left) for _ in range(draws))
        p = exact_finish(trial, left)
        assert stats.binomtest(hits, draws, p).pvalue > SIGNIFICANCE
    assert abs(exact_finish(2, 1) - math.exp(-1)) < 1e-15


def test_unit_factors_pass_with_probability_exp_minus_count_independently():
    source = entropy_source()
    n = 20 * DRAWS
    for count in (1, 2, 3):
        out = unit_factors_pass(source, np.full(n, count, dtype=np.int64))
        assert stats.binomtest(int(out.sum()), n, math.exp(-count)).pvalue > SIGNIFICANCE
    assert not unit_factors_pass(source, np.full(n, 64, dtype=np.int64)).any()
    # pairs of neighbours are independent: the four joint outcomes of (count 1, count 2)
    out = unit_factors_pass(source, np.tile(np.array([1, 2], dtype=np.int64), n // 2))
    cells = Counter(zip(out[0::2].tolist(), out[1::2].tolist()))
    p, q = math.exp(-1), math.exp(-2)
    expected = {
        (a, b): (p if a else 1 - p) * (q if b else 1 - q) * (n // 2)
        for a in (False, True)
        for b in (False, True)
    }
    keys = sorted(expected)
    pvalue = stats.chisquare([cells[key] for key in keys], [expected[key] for key in keys]).pvalue
    assert pvalue > SIGNIFICANCE


def test_lazy_order_chunk_keeps_first_draws_and_refuses_the_top_words():
    visited = np.array([False, True, False])
    # 2**64 - 1 is refused for size 3 (3 * floor(2**64 / 3) = 2**64 - 1); then 5 % 3 = 2,
    # 2 again (met), 0, 4 % 3 = 1 (visited)
    words = [2**64 - 1, 5, 2, 0, 4]
    halves = np.array(words, dtype=np.uint64).view(np.uint32).tolist()
    fresh = lazy_order_chunk(Scripted(halves), 3, 5, visited)
    assert fresh.tolist() == [2, 0] and visited.all() and fresh.dtype == np.int64


def test_the_lazy_order_is_uniform():
    source = entropy_source()
    orders = Counter()
    for _ in range(DRAWS // 2):
        visited, order = np.zeros(4, dtype=bool), []
        while not visited.all():
            order += lazy_order_chunk(source, 4, 2, visited).tolist()
        orders[tuple(order)] += 1
    perms = list(itertools.permutations(range(4)))
    assert set(orders) <= set(perms)
    assert stats.chisquare([orders[p] for p in perms]).pvalue > SIGNIFICANCE


def test_first_accepted_visits_in_the_given_order_unless_shuffled():
    source = entropy_source()
    column = score_column([5, 5, 5, -(10**9)])
    positions = np.array([3, 2, 0, 1])
    for _ in range(50):  # index 0 (position 3) is never accepted, position 2 always is
        assert first_accepted(source, column, 5, Fraction(1), positions, False) == 1
    picks = Counter(
        first_accepted(source, column, 5, Fraction(1), positions, True) for _ in range(3000)
    )
    assert set(picks) == {1, 2, 3}
    assert stats.chisquare([picks[i] for i in (1, 2, 3)]).pvalue > SIGNIFICANCE
    assert first_accepted(source, column, 5, Fraction(1), np.array([3]), False) is None


def pf_by_integral(values, scale):
    """PF(i) = p_i * integral_0^1 prod_{j != i} (1 - p_j + p_j t) dt (E[1{i in A} / |A|] for
    independent coins), by numerical integration (once per distinct value)."""
    top = max(values)
    p = np.array([math.exp(-(top - v) / scale) for v in values])
    by_value = {}
    for value in set(values):
        i = values.index(value)
        others = np.delete(p, i)
        integral, error = integrate.quad(
            lambda t, q=others: float(np.prod(1 - q + q * t)), 0, 1, epsabs=1e-13, limit=200
        )
        assert error < 1e-9
        by_value[value] = p[i] * integral
    return [by_value[v] for v in values]


def test_the_integral_formula_is_permute_and_flip():
    values = [0, 1, 3, 3, 4]
    exact = pf_round_pmf(sympy_values([Fraction(v) for v in values]), list(range(5)), 2)
    for i, value in enumerate(pf_by_integral(values, 2)):
        assert abs(value - float(exact[i])) < 1e-12


def round_frequencies(values, scale, draws):
    column = score_column(values)
    source = entropy_source()
    return Counter(permute_and_flip_round(source, column, Fraction(scale)) for _ in range(draws))


def test_rounds_drawing_the_order_in_chunks_match_permute_and_flip(monkeypatch):
    monkeypatch.setattr(noisy_top_k, "FIRST_CHUNK", 1)  # chunks of 1, 2, ... draws, then the rest
    values = [3 * (i % 5) + i // 5 for i in range(16)]
    pmf = dict(enumerate(pf_by_integral(values, 2)))
    assert chi_square(round_frequencies(values, 2, DRAWS), pmf) > SIGNIFICANCE


def test_a_large_round_matches_permute_and_flip():
    """2048 scores: the first chunk (256 draws) holds a high score about half of the time."""
    values = [0] * 2048
    for rank, position in enumerate((5, 300, 701, 1024, 1500, 1800, 2000, 2047)):
        values[position] = 10 + rank
    pmf = pf_by_integral(values, 2)
    counts = round_frequencies(values, 2, DRAWS // 4)
    low = [i for i, v in enumerate(values) if v == 0]
    grouped = Counter()
    for i, c in counts.items():
        grouped["low" if values[i] == 0 else i] += c
    expected = {i: p for i, p in enumerate(pmf) if values[i] != 0}
    expected["low"] = sum(pmf[i] for i in low)
    keys = list(expected)
    observed = [grouped.get(key, 0) for key in keys]
    total = sum(observed)
    pvalue = stats.chisquare(observed, [expected[key] * total for key in keys]).pvalue
    assert pvalue > SIGNIFICANCE and expected["low"] > 0.05


def test_far_gaps_beyond_the_cut_keep_their_rest(monkeypatch):
    """With the cut at 0, every gap of at least one scale runs one factor side by side and the
    rest of its gap in the visit: the peeled rounds keep the exact probabilities."""
    monkeypatch.setattr(noisy_top_k, "PF_CUT", 0)
    pmf = peeled_pmf(sympy_values(SCORES), sympy.Rational(2, 3), 2, pf_round_pmf)
    source = entropy_source()
    common = 2  # the scores times 2 are integers; the scale times 2 is 4/3
    values = [int(s * common) for s in SCORES]
    counts = Counter(
        tuple(peeled_selection(source, values, Fraction(4, 3), 2, False)) for _ in range(DRAWS)
    )
    assert chi_square(counts, pmf) > SIGNIFICANCE
