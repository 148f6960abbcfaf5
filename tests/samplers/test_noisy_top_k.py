"""The noisy top-k sampler (samplers/noisy_top_k.py): peeled permute-and-flip and peeled
exponential mechanism, against their exact selection probabilities (sympy) and, for the Gumbel
identity of the lemma, against the race itself (numerical integration)."""

from __future__ import annotations

import itertools
import math
import os
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate, stats

from certdp.core.errors import FailedFunctionError
from certdp.samplers.noisy_top_k import (
    exponential_mechanism_round,
    peeled_selection,
    permute_and_flip_round,
    sample_noisy_top_k,
    score_column,
)
from certdp.samplers.uniform import entropy_source

from ..laplace.stats import SIGNIFICANCE

#: Draws per goodness-of-fit test: the `thorough` profile runs ten times as many.
DRAWS = 16_000 * (10 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 1)


# exact probabilities, computed from the definitions (not from the code's structure) -----------


def _weights(values, alive, scale):
    top = max(values[i] for i in alive)
    return {i: sympy.exp(-(top - values[i]) / scale) for i in alive}


def pf_round_pmf(values, alive, scale):
    """Permute-and-flip by its definition: average over all orders of the chance that ``i`` is
    the first accepted (every candidate flips its own independent coin)."""
    p = _weights(values, alive, scale)
    pmf = {i: sympy.Integer(0) for i in alive}
    orders = list(itertools.permutations(alive))
    for order in orders:
        reach = sympy.Integer(1)
        for i in order:
            pmf[i] += reach * p[i] / len(orders)
            reach *= 1 - p[i]
    return pmf


def em_round_pmf(values, alive, scale):
    """The exponential mechanism: ``Pr[i] = exp(v_i / scale) / sum_j exp(v_j / scale)``."""
    w = {i: sympy.exp(values[i] / scale) for i in alive}
    total = sum(w.values())
    return {i: w[i] / total for i in alive}


def peeled_pmf(values, scale, k, round_pmf):
    """Probability of each ordered ``k``-tuple under ``k`` peeled rounds."""
    pmf = {}
    for order in itertools.permutations(range(len(values)), k):
        alive, prob = list(range(len(values))), sympy.Integer(1)
        for i in order:
            prob *= round_pmf(values, alive, scale)[i]
            alive.remove(i)
        pmf[order] = sympy.nsimplify(prob) if prob.is_Rational else prob
    return pmf


def chi_square(counts, pmf):
    keys = sorted(pmf)
    total = sum(counts.values())
    assert set(counts) <= set(keys)
    expected = [float(pmf[key]) * total for key in keys]
    observed = [counts.get(key, 0) for key in keys]
    return stats.chisquare(observed, expected).pvalue


SCORES = [Fraction(0), Fraction(1, 2), Fraction(3, 2), Fraction(2)]
SCALE = Fraction(2, 3)


def sympy_values(scores, sign=1):
    return [sign * sympy.Rational(s.numerator, s.denominator) for s in scores]


def test_exact_pmfs_sum_to_one_and_differ_between_mechanisms():
    values = sympy_values(SCORES)
    scale = sympy.Rational(2, 3)
    pf = peeled_pmf(values, scale, 2, pf_round_pmf)
    em = peeled_pmf(values, scale, 2, em_round_pmf)
    assert abs(sympy.N(sum(pf.values()) - 1, 60)) < 1e-50
    assert abs(sympy.N(sum(em.values()) - 1, 60)) < 1e-50
    # the two mechanisms are different distributions (the test below can tell them apart)
    assert abs(float(pf[(3, 2)]) - float(em[(3, 2)])) > 0.05


@pytest.mark.parametrize(
    "noise,round_pmf", [("exponential", pf_round_pmf), ("gumbel", em_round_pmf)]
)
@pytest.mark.parametrize("k", [1, 2])
def test_selection_frequencies_match_the_exact_probabilities(noise, round_pmf, k):
    values = sympy_values(SCORES)
    pmf = peeled_pmf(values, sympy.Rational(2, 3), k, round_pmf)
    counts = Counter(tuple(sample_noisy_top_k(SCORES, SCALE, k, noise)) for _ in range(DRAWS))
    assert chi_square(counts, pmf) > SIGNIFICANCE


@pytest.mark.parametrize("noise,other", [("exponential", em_round_pmf), ("gumbel", pf_round_pmf)])
def test_the_chi_square_test_rejects_the_other_mechanism(noise, other):
    """Power check: the same draws are far from the other mechanism's probabilities."""
    pmf = peeled_pmf(sympy_values(SCORES), sympy.Rational(2, 3), 2, other)
    counts = Counter(tuple(sample_noisy_top_k(SCORES, SCALE, 2, noise)) for _ in range(DRAWS))
    assert chi_square(counts, pmf) < SIGNIFICANCE


@pytest.mark.parametrize(
    "noise,round_pmf", [("exponential", pf_round_pmf), ("gumbel", em_round_pmf)]
)
def test_negate_selects_the_smallest_scores(noise, round_pmf):
    scores = [3, 1, 2]  # ints, scale 1
    pmf = peeled_pmf(sympy_values([Fraction(s) for s in scores], -1), 1, 2, round_pmf)
    counts = Counter(
        tuple(sample_noisy_top_k(scores, 1, 2, noise, negate=True)) for _ in range(DRAWS)
    )
    assert chi_square(counts, pmf) > SIGNIFICANCE
    assert counts[(1, 2)] > counts[(0, 2)]  # the smallest score first is the likeliest


def _race_pmf(scores, density, cdf, lower):
    """Order probabilities of the two largest of ``scores[i] + noise_i``, by integrating over
    the value ``y`` of the second largest (double precision, error below 1e-8)."""
    pmf = {}
    n = len(scores)
    for i, j in itertools.permutations(range(n), 2):
        rest = [m for m in range(n) if m not in (i, j)]

        def integrand(y, i=i, j=j, rest=rest):
            inside = density(y - scores[j]) * (1 - cdf(y - scores[i]))
            for m in rest:
                inside *= cdf(y - scores[m])
            return inside

        value, error = integrate.quad(
            integrand, scores[j] + lower, 60, points=scores, epsabs=1e-12, limit=400
        )
        assert error < 1e-8
        pmf[(i, j)] = value
    return pmf


def test_gumbel_race_equals_the_peeled_exponential_mechanism():
    """The identity of the lemma: the top two of Gumbel-noised scores are ordered as two peeled
    rounds of the exponential mechanism (checked by integrating the race numerically)."""
    scores = [0.0, 0.5, 1.5]
    race = _race_pmf(
        scores,
        lambda z: math.exp(-z - math.exp(-z)),
        lambda z: math.exp(-math.exp(-z)),
        lower=-6.0,  # exp(-exp(6)) < 1e-170: the density is negligible below
    )
    values = [sympy.Integer(0), sympy.Rational(1, 2), sympy.Rational(3, 2)]
    peeled = peeled_pmf(values, 1, 2, em_round_pmf)
    for key, value in race.items():
        assert abs(value - float(peeled[key])) < 1e-7


def test_exponential_race_equals_permute_and_flip_for_one_but_not_for_two():
    """Report-noisy-max with Exp(1) noise is permute-and-flip (k = 1), but the top two of one
    Exp-noised draw are NOT two peeled permute-and-flip rounds: the sampler (like OpenDP 0.16)
    runs the peeled rounds, and its lemma says so."""
    scores = [0.0, 1.0, 2.0]
    race = _race_pmf(
        scores,
        lambda z: math.exp(-z) if z >= 0 else 0.0,
        lambda z: -math.expm1(-z) if z >= 0 else 0.0,
        lower=0.0,  # Exp noise is non-negative
    )
    values = [sympy.Integer(0), sympy.Integer(1), sympy.Integer(2)]
    first = pf_round_pmf(values, [0, 1, 2], 1)
    for i in range(3):
        winner = sum(race[(i, j)] for j in range(3) if j != i)
        assert abs(winner - float(first[i])) < 1e-7
    peeled = peeled_pmf(values, 1, 2, pf_round_pmf)
    assert abs(race[(2, 1)] - float(peeled[(2, 1)])) > 0.01


# the rounds, directly ------------------------------------------------------------------------


def test_rounds_only_return_alive_indices_and_a_lone_maximum_far_ahead_always_wins():
    source = entropy_source()
    values = [0, 5, -3, 10**6]
    column = score_column(values)

    def rounds(run_round):  # takes the alive scores, returns a position
        return lambda source, values, alive, scale: alive[run_round(source, column[alive], scale)]

    for step in map(rounds, (permute_and_flip_round, exponential_mechanism_round)):
        assert step(source, values, [3, 0, 1], Fraction(1)) == 3
        assert step(source, values, [2], Fraction(1)) == 2
        assert step(source, values, [0, 2], Fraction(1, 10**9)) == 0
    assert peeled_selection(source, values, Fraction(1, 1000), 4, False) == [3, 1, 0, 2]
    assert peeled_selection(source, values, Fraction(1, 1000), 4, True) == [3, 1, 0, 2]


def test_ties_are_uniform():
    for noise in ("exponential", "gumbel"):
        draws = (sample_noisy_top_k([7, 7, 7], 1, 1, noise)[0] for _ in range(DRAWS // 4))
        counts = Counter(draws)
        assert stats.chisquare([counts[i] for i in range(3)]).pvalue > SIGNIFICANCE


# properties and bad input --------------------------------------------------------------------

finite = st.one_of(
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300),
    st.fractions(max_denominator=10**6).filter(lambda f: abs(f) < 10**9),
)


@given(
    scores=st.lists(finite, min_size=1, max_size=8),
    scale=st.sampled_from([Fraction(1, 10**6), Fraction(1, 3), 1, 2.5, 10**9]),
    data=st.data(),
)
def test_output_is_k_distinct_indices(scores, scale, data):
    k = data.draw(st.integers(1, len(scores)))
    noise = data.draw(st.sampled_from(["exponential", "gumbel"]))
    negate = data.draw(st.booleans())
    out = sample_noisy_top_k(scores, scale, k, noise, negate=negate)
    assert len(out) == k == len(set(out)) and all(0 <= i < len(scores) for i in out)


def test_extreme_floats_are_compared_exactly():
    """The subnormal 5e-324 is above 0 and below 1e-323: far beyond float rounding of the gaps,
    at a scale 2^-1080 the order is decided with certainty."""
    tiny = Fraction(1, 2**1080)
    scores = [0.0, 5e-324, 1e-323, -1e300]
    assert sample_noisy_top_k(scores, tiny, 4, "exponential") == [2, 1, 0, 3]
    assert sample_noisy_top_k(np.array(scores), tiny, 4, "gumbel", negate=True) == [3, 0, 1, 2]


def test_numpy_arrays_of_every_exact_dtype_and_refused_dtypes():
    for dtype in (np.int8, np.uint64, np.int64, np.float16, np.float32, np.float64):
        array = np.array([1, 0, 100], dtype=dtype)
        assert sample_noisy_top_k(array, Fraction(1, 10**6), 2, "exponential") == [2, 0]
    for array in (np.array([True, False]), np.array([1, 2], dtype=np.longdouble)):
        with pytest.raises(FailedFunctionError) as error:
            sample_noisy_top_k(array, 1, 1, "gumbel")
        assert error.value.parameter == "scores"


def test_numpy_inputs_are_exact():
    out = sample_noisy_top_k(
        np.array([0.0, 1e6], dtype=np.float32), np.float64(0.5), np.int64(1), "gumbel"
    )
    assert out == [1]
    assert sample_noisy_top_k((np.int8(3), 1), 1, 2, "exponential") in ([0, 1], [1, 0])


@pytest.mark.parametrize(
    "arguments,parameter,rule",
    [
        (([], 1, 1, "gumbel"), "scores", "must not be empty"),
        (([1, float("nan")], 1, 1, "gumbel"), "scores", "must be finite"),
        (([1, float("inf")], 1, 1, "exponential"), "scores", "must be finite"),
        (([1, -float("inf")], 1, 1, "exponential"), "scores", "must be finite"),
        (([True, 1], 1, 1, "exponential"), "scores", "must be an int"),
        (([np.longdouble(1)], 1, 1, "exponential"), "scores", "must be an int"),
        (([1, "2"], 1, 1, "exponential"), "scores", "must be an int"),
        ((np.zeros((2, 2)), 1, 1, "exponential"), "scores", "one-dimensional"),
        (({1, 2}, 1, 1, "exponential"), "scores", "must be a list"),
        (([1, 2], 0, 1, "gumbel"), "scale", "must be positive"),
        (([1, 2], -1, 1, "gumbel"), "scale", "must be positive"),
        (([1, 2], float("nan"), 1, "gumbel"), "scale", "must be finite"),
        (([1, 2], float("inf"), 1, "gumbel"), "scale", "must be finite"),
        (([1, 2], 1, 3, "gumbel"), "k", "must lie in [1, 2]"),
        (([1, 2], 1, 0, "gumbel"), "k", "must lie in [1, 2]"),
        (([1, 2], 1, -1, "gumbel"), "k", "must lie in [1, 2]"),
        (([1, 2], 1, 1.0, "gumbel"), "k", "must be an integer"),
        (([1, 2], 1, True, "gumbel"), "k", "must be an integer"),
        (([1, 2], 1, 1, "laplace"), "noise", "must be 'exponential' or 'gumbel'"),
        (([1, 2], 1, 1, None), "noise", "must be 'exponential' or 'gumbel'"),
    ],
)
def test_bad_input_is_refused_with_a_typed_error(arguments, parameter, rule):
    with pytest.raises(FailedFunctionError) as error:
        sample_noisy_top_k(*arguments)
    assert error.value.parameter == parameter and rule in str(error.value)


def test_bad_negate_is_refused():
    with pytest.raises(FailedFunctionError) as error:
        sample_noisy_top_k([1, 2], 1, 1, "gumbel", negate=1)
    assert error.value.parameter == "negate"


def test_huge_gaps_terminate_quickly():
    scores = [0, 10**30, -(10**30), 10**30 - 1]
    assert sample_noisy_top_k(scores, Fraction(1, 10**6), 3, "exponential") == [1, 3, 0]
    assert sample_noisy_top_k(scores, Fraction(1, 10**6), 3, "gumbel") == [1, 3, 0]
    top = sample_noisy_top_k(list(range(2000)), Fraction(1, 100), 5, "gumbel")
    assert top == [1999, 1998, 1997, 1996, 1995]
