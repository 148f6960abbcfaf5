"""Fractions with NumPy integer fields reach sample_noisy_top_k as Python ints (referee ref-samp,
session 12, breaks 1-3): before exact_score converted the fields, int64 arithmetic wrapped
around in the layout's threshold (a hang), ``int.__lt__(np.int64)`` returned NotImplemented,
which itertools.compress took as true (a hang), or ``int * np.int64`` overflowed (an untyped
OverflowError). The two hang cases run in a subprocess with a timeout and a memory cap."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from certdp.core.errors import DPError, FailedFunctionError
from certdp.samplers.noisy_top_k import exact_score, sample_noisy_top_k

_CAPPED = r"""
import resource
resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))
import warnings
warnings.simplefilter("error")  # an int64 overflow warning fails the run
import numpy as np
from fractions import Fraction
from certdp.samplers.noisy_top_k import sample_noisy_top_k
"""

# scale about 1.5e18 with NumPy fields: the three scores are within a tiny fraction of a scale
# unit of each other, so each index is drawn with probability about 1/3
_SCALE_SCRIPT = (
    _CAPPED
    + r"""
scale = Fraction(np.int64(2**62), np.int64(3))
out = [sample_noisy_top_k([3, 0, 1], scale, 1, "gumbel")[0] for _ in range(200)]
print(sorted(set(out)))
"""
)

# an int score and a NumPy-field Fraction score 10**15 scale units below it: index 0 always
_MIXED_SCRIPT = (
    _CAPPED
    + r"""
out = [sample_noisy_top_k([0, Fraction(np.int64(-10**15))], 1, 1, "gumbel")[0] for _ in range(50)]
print(sorted(set(out)))
"""
)


def _run_capped(script: str) -> str:
    try:
        done = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ},
        )
    except subprocess.TimeoutExpired:
        pytest.fail("sample_noisy_top_k did not return within 60 s (hang)")
    assert done.returncode == 0, done.stderr[-600:]
    return done.stdout.strip()


def test_numpy_field_fraction_scale_returns_every_index():
    # P(an index is missing from 200 draws) < 3 * (2/3 + 1e-17)**200 < 1e-34
    assert _run_capped(_SCALE_SCRIPT) == "[0, 1, 2]"


def test_mixed_int_and_numpy_field_fraction_scores_pick_the_maximum():
    # the other index has weight exp(-10**15) relative to the maximum
    assert _run_capped(_MIXED_SCRIPT) == "[0]"


def test_numpy_field_fraction_scale_with_large_scores_is_result_not_overflow():
    scale = Fraction(np.int64(1), np.int64(3))
    try:
        # the gap is 3 * 2**70 scale units: index 0 with probability 1 - exp(-3 * 2**70)
        assert sample_noisy_top_k([2**70, 0], scale, 1, "gumbel") == [0]
    except DPError:
        pass
    assert sample_noisy_top_k([2**70, 0], scale, 1, "exponential") == [0]


@pytest.mark.parametrize(
    "value, pair",
    [
        (Fraction(np.int64(2**62), np.int64(3)), (2**62, 3)),
        (Fraction(np.int64(-6), np.int64(4)), (-3, 2)),
        (Fraction(np.uint64(2**64 - 1), np.uint8(7)), (2**64 - 1, 7)),
        (Fraction(np.int8(-1)), (-1, 1)),
        (np.int64(-5), (-5, 1)),
        (Fraction(7, 3), (7, 3)),
    ],
)
def test_exact_score_returns_python_ints(value, pair):
    got = exact_score(value, "scores")
    assert got == pair
    assert [type(field) for field in got] == [int, int]


def test_exact_score_refuses_a_fraction_with_non_integer_fields_typed():
    odd = Fraction(1, 3)
    odd._numerator = 0.5  # only reachable by writing the slot; the check must still hold
    with pytest.raises(
        FailedFunctionError, match="numerator and denominator are not plain integers"
    ) as caught:
        exact_score(odd, "scale")
    assert caught.value.parameter == "scale"


def test_numpy_field_fraction_scores_keep_exact_distribution_inputs():
    # the NumPy-field Fraction scores and their Python-int twins give the same certain answer
    far = [Fraction(np.int64(0)), Fraction(np.int64(-(10**12)), np.int64(7))]
    assert sample_noisy_top_k(far, Fraction(np.int64(1), np.int64(2)), 1, "gumbel") == [0]
    assert sample_noisy_top_k(far, Fraction(np.int64(1), np.int64(2)), 1, "exponential") == [0]
    assert sample_noisy_top_k(far, 1, 2, "gumbel", negate=True) == [1, 0]
