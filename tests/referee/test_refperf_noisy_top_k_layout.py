"""refperf: whole_gap_layout on an int64 column equals an independent pure-Python
computation of (L) (not the function's own object branch) at the +-2^62 edges and at the
(K+1)a + b = 2^63 switch."""

import random
from fractions import Fraction

import numpy as np

from certdp.samplers.noisy_top_k import score_column, whole_gap_layout

W = 1 << 62


def reference(values, top, scale, precision):
    a, b = scale.numerator, scale.denominator
    K = precision + len(values).bit_length()
    w = [(top - v) * b // a for v in values]
    keys = sorted({x for x in w if x <= K})
    return keys, {k: [p for p, x in enumerate(w) if x == k] for k in keys}


def test_layout_matches_an_independent_reference_at_the_int64_edges():
    rng = random.Random(7)
    edges = [W, W - 1, -W, -W + 1, 0, 1, -1]
    for n in (1, 2, 3, 5, 8):
        K1 = 64 + n.bit_length() + 1
        scales = [Fraction(1), Fraction(1, 3), Fraction(1, W), Fraction(1 << 56), Fraction(W)]
        scales += [Fraction(((1 << 63) - b) // K1 + d, b) for b in (1, 2, 3) for d in (-1, 0, 1)]
        for _ in range(60):
            values = [
                max(-W, min(W, rng.choice(edges) + rng.choice([0, 1, -1, 5]))) for _ in range(n)
            ]
            if rng.random() < 0.5:
                values = [-v for v in values]
            column = score_column(values)
            assert column.dtype == np.int64
            for scale in scales:
                keys, members, *_ = whole_gap_layout(column, max(values), scale, 64)
                assert (keys, members) == reference(values, max(values), scale, 64)
