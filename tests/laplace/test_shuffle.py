"""The Fisher--Yates shuffle (samplers/shuffle.py): uniform over all permutations."""

import itertools
from collections import Counter

from scipy import stats

from certdp.samplers.shuffle import shuffled

from .stats import SIGNIFICANCE


def test_every_permutation_is_equally_likely():
    records = ["a", "b", "c", "d"]
    draws = 48_000
    counts = Counter(tuple(shuffled(records)) for _ in range(draws))
    permutations = list(itertools.permutations(records))
    assert set(counts) == set(permutations)
    observed = [counts[p] for p in permutations]
    assert stats.chisquare(observed).pvalue > SIGNIFICANCE


def test_positions_are_uniform_for_a_longer_list():
    draws, length = 20_000, 9
    first = Counter(shuffled(range(length))[0] for _ in range(draws))
    assert stats.chisquare([first[i] for i in range(length)]).pvalue > SIGNIFICANCE


def test_the_input_is_not_modified_and_small_lists():
    records = [3, 1, 2]
    out = shuffled(records)
    assert records == [3, 1, 2] and sorted(out) == [1, 2, 3] and out is not records
    assert shuffled([]) == [] and shuffled([7]) == [7]
