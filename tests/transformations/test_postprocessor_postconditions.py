"""make_cdf's output against its exact-rational postcondition, make_quantiles_from_counts's
(nearest) against its edge-and-order postcondition (postconditions.py), on random inputs, and
the checks' power: a wrong output fails them."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.transformations._postprocess.postconditions import (
    cdf_expected,
    cdf_postcondition,
    nearest_quantiles_postcondition,
)

COUNTS = st.lists(
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300),
    min_size=1,
    max_size=12,
)


@given(COUNTS)
def test_cdf_meets_its_exact_postcondition(x):
    assert cdf_postcondition(x, dp.t.make_cdf()(x))


@given(st.lists(st.integers(0, 10**6).map(float), min_size=1, max_size=12))
def test_cdf_of_counts_meets_its_postcondition_and_ends_at_one(x):
    out = dp.t.make_cdf()(x)
    assert cdf_postcondition(x, out)
    if sum(x) > 0:
        assert out[-1] == 1.0 and all(a <= b for a, b in zip(out, out[1:]))


def test_the_check_sees_a_one_ulp_error_and_another_summation_order():
    x = [0.1, 0.2, 0.3]
    out = dp.t.make_cdf()(x)
    assert cdf_postcondition(x, out)
    assert not cdf_postcondition(x, [out[0], out[1] + 2**-53, out[2]])
    # the exact prefix sums divided by the exact total, rounded once: not the IEEE replay
    total = sum(map(Fraction, x))
    once = [float(sum(map(Fraction, x[: i + 1])) / total) for i in range(len(x))]
    assert once != out and not cdf_postcondition(x, once)


def test_the_check_skips_zero_and_overflowing_totals():
    assert cdf_expected([0.0, 0.0]) is None
    assert cdf_expected([1e308, 1e308]) is None
    assert cdf_expected([1.0, 3.0]) == [0.25, 1.0]


@given(
    st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=8, unique=True),
    st.lists(st.integers(0, 10**4), min_size=1, max_size=9),
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=6, unique=True),
)
def test_nearest_quantiles_meet_their_postcondition(edges, counts, alphas):
    edges = sorted(edges)
    counts = [float(c) for c in (counts * len(edges))[: len(edges) - 1]]  # TA = f64, as the edges
    alphas = sorted(a + 0.0 for a in alphas)  # -0.0 is refused, as in OpenDP
    if sum(counts) == 0:
        return
    release = dp.t.make_quantiles_from_counts(edges, alphas, interpolation="nearest")
    assert nearest_quantiles_postcondition(edges, counts, release(counts))


def test_the_quantile_check_sees_a_wrong_output():
    assert nearest_quantiles_postcondition([0.0, 1.0, 2.0], [1, 1], [0.0, 2.0])
    assert not nearest_quantiles_postcondition([0.0, 1.0, 2.0], [1, 1], [2.0, 0.0])
    assert not nearest_quantiles_postcondition([0.0, 1.0, 2.0], [1, 1], [0.5, 2.0])
