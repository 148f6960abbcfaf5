"""The coupling certificate for randomised transformations, on synthetic samplers."""

import itertools
import secrets

import certdp.prelude as dp
from certdp.crosscheck.coupling import FULL, certify, exceeds_value

METRIC = dp.insert_delete_distance()
PERMUTATIONS = list(itertools.permutations([0, 1, 2]))


def test_a_fixed_output_against_a_uniform_shuffle_is_certified():
    """OpenDP's #2927 in miniature: (0, 1, 2) always, against a uniform shuffle of it."""
    certified, details = certify(
        lambda: [0, 1, 2], lambda: list(secrets.choice(PERMUTATIONS)), METRIC, 2, FULL
    )
    assert certified
    assert details["coupled"] == 4  # the exact coupling of the observed outputs
    assert details["witness"] == [2, 1, 0]


def test_equal_distributions_are_never_certified():
    def shuffled():
        return list(secrets.choice(PERMUTATIONS))

    certified, details = certify(shuffled, shuffled, METRIC, 0, FULL)
    assert not certified
    assert details["far"] == 0  # every output on x' was also seen on x


def test_a_claim_the_coupling_meets_is_not_certified():
    certified, _ = certify(
        lambda: [0, 1, 2], lambda: list(secrets.choice(PERMUTATIONS)), METRIC, 4, FULL
    )
    assert not certified


def test_exceeds_value_is_exact():
    assert exceeds_value(4, 2) and not exceeds_value(2, 2)
    assert exceeds_value(float("inf"), 1e308) and not exceeds_value(float("inf"), float("inf"))
    assert exceeds_value(2**53 + 1, float(2**53))
