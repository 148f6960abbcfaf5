"""make_consistent_b_ary_tree, make_cdf, make_quantiles_from_counts: OpenDP 0.16's numbers
(each literal computed with the OpenDP call named beside it, opendp==0.16.0), the float format
each runs in, and refusals of bad input with typed errors."""

import math

import numpy as np
import pytest

import certdp.prelude as dp
from certdp.core.errors import FailedFunctionError, MakeTransformationError
from certdp.core.postprocess import Function
from certdp.transformations.consistent_b_ary_tree.make_consistent_b_ary_tree import tree_layers

# (branching_factor, tree) -> odp.t.make_consistent_b_ary_tree(b)(tree)
TREES = [
    (2, [1], [1.0]),
    (2, [1, 2], [1.5]),
    (2, [5, 2, 3], [2.0, 3.0]),
    (2, [10, 4, 3, 2, 2], [3.2, 3.2]),
    (
        2,
        [10, 4, 3, 2, 2, 1, 1],
        [2.476190476190476, 2.476190476190476, 1.8095238095238095, 1.8095238095238095],
    ),
    (
        2,
        [10, 6, 5, 2, 3, 4, 1],
        [2.2380952380952377, 3.2380952380952377, 3.904761904761904, 0.9047619047619042],
    ),
    (2, [9, 3, 4, 1, 2, 3], [1.3846153846153846, 2.3846153846153846, 4.076923076923077]),
    (
        2,
        [100, 20, 70, 7, 12, 40, 33],
        [8.666666666666668, 13.666666666666668, 40.333333333333336, 33.333333333333336],
    ),
    (
        2,
        [-10, 4, -3, 2, 2, 1, 1],
        [0.1904761904761909, 0.1904761904761909, -2.476190476190476, -2.476190476190476],
    ),
    (3, [10, 3, 3, 4], [3.0, 3.0, 4.0]),
    (
        3,
        [10, 3, 3, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        [1.0192307692307694] * 6 + [1.2692307692307694] * 3,
    ),
    (3, [9, 2, 3, 4, 1, 1, 1, 1, 1], [1.1724137931034482] * 3 + [1.896551724137931] * 2),
]


@pytest.mark.parametrize("b, tree, expected", TREES)
def test_consistent_tree_matches_opendp(b, tree, expected):
    built = dp.t.make_consistent_b_ary_tree(b)
    assert type(built) is Function
    assert built(tree) == expected
    assert built(np.array(tree)) == expected


def test_consistent_tree_f32():
    # odp.t.make_consistent_b_ary_tree(2, TOA="f32")([10, 4, 3, 2, 2, 1, 1])
    out = dp.t.make_consistent_b_ary_tree(2, TOA="f32")([10, 4, 3, 2, 2, 1, 1])
    assert out == [2.4761905670166016, 2.4761905670166016, 1.8095237016677856, 1.8095237016677856]
    assert all(float(np.float32(v)) == v for v in out)


def test_consistent_tree_is_consistent_and_keeps_the_total():
    # the leaves sum to the consistent root; a tree already consistent is returned unchanged
    built = dp.t.make_consistent_b_ary_tree(2)
    assert built([10, 4, 6, 1, 3, 2, 4]) == [1.0, 3.0, 2.0, 4.0]
    assert built([7, 3, 4, 1, 2, 3, 1]) == [1.0, 2.0, 3.0, 1.0]


def test_tree_layers():
    assert [tree_layers(n, 2) for n in (1, 2, 3, 4, 7, 8, 15, 16)] == [1, 2, 2, 3, 3, 4, 4, 5]
    assert [tree_layers(n, 3) for n in (1, 2, 4, 5, 13, 14)] == [1, 2, 2, 3, 3, 4]


def test_consistent_tree_f32_large_integers_round_once():
    # 2**24 + 1 is no f32: it rounds to even (2**24), 2**62 + 2**38 + 1 rounds up (above a tie)
    built = dp.t.make_consistent_b_ary_tree(2, TIA="i64", TOA="f32")
    assert built([2**24 + 1]) == [16777216.0]
    assert built([2**62 + 2**38 + 1]) == [float(2**62 + 2**39)]
    assert built([-(2**62) - 2**38]) == [-float(2**62)]


@pytest.mark.parametrize("b", [0, 1, -2, 2**32, 2.0, True, "2", None])
def test_consistent_tree_refuses_branching_factor(b):
    with pytest.raises(MakeTransformationError, match="branching_factor"):
        dp.t.make_consistent_b_ary_tree(b)


@pytest.mark.parametrize(
    "kwargs", [{"TIA": "i8"}, {"TIA": "f64"}, {"TOA": "i32"}, {"TOA": "u8"}, {"TIA": 3}]
)
def test_consistent_tree_refuses_types(kwargs):
    with pytest.raises(MakeTransformationError, match="TIA|TOA"):
        dp.t.make_consistent_b_ary_tree(2, **kwargs)


@pytest.mark.parametrize(
    "arg",
    [[], [1.5], [float("nan")], [True], [2**31], "abc", None, [[1]], np.zeros((2, 2), int)],
)
def test_consistent_tree_refuses_bad_trees(arg):
    with pytest.raises(FailedFunctionError, match="arg"):
        dp.t.make_consistent_b_ary_tree(2)(arg)


def test_consistent_tree_refuses_a_huge_padded_tree():
    # two nodes with b = 2**31: the padded tree would hold 2**31 + 1 nodes
    with pytest.raises(FailedFunctionError, match="padded tree"):
        dp.t.make_consistent_b_ary_tree(2**31)([1, 2])


# odp.t.make_cdf()(counts)
CDFS = [
    ([1.0], [1.0]),
    ([1.0, 2.0, 3.0], [0.16666666666666666, 0.5, 1.0]),
    ([0.1, 0.2, 0.3], [0.16666666666666666, 0.5, 1.0]),
]


@pytest.mark.parametrize("counts, expected", CDFS)
def test_cdf_matches_opendp(counts, expected):
    assert dp.t.make_cdf()(counts) == expected
    assert dp.t.make_cdf(TA=float)(np.array(counts)) == expected


def test_cdf_zero_and_cancelling_totals_as_ieee_division():
    # odp.t.make_cdf()([0.0, 0.0]) == [nan, nan]; odp.t.make_cdf()([1.0, -1.0]) == [inf, nan]
    assert all(math.isnan(v) for v in dp.t.make_cdf()([0.0, 0.0]))
    inf, nan = dp.t.make_cdf()([1.0, -1.0])
    assert inf == math.inf and math.isnan(nan)


def test_cdf_f32_computes_in_binary32():
    out = dp.t.make_cdf(TA="f32")([0.1, 0.2, 0.3])
    x = [np.float32(v) for v in (0.1, 0.2, 0.3)]
    s = [x[0] + np.float32(0), x[0] + x[1], x[0] + x[1] + x[2]]
    assert out == [float(v / s[2]) for v in s]
    assert out[0] == 0.1666666567325592


@pytest.mark.parametrize("arg", [[], [float("nan"), 1.0], [1], [True], "1.0", None])
def test_cdf_refuses_bad_counts(arg):
    with pytest.raises(FailedFunctionError, match="arg"):
        dp.t.make_cdf()(arg)


@pytest.mark.parametrize("TA", ["i32", "int", "String", 5])
def test_cdf_refuses_non_float_types(TA):
    with pytest.raises(MakeTransformationError, match="TA"):
        dp.t.make_cdf(TA=TA)


EDGES, ALPHAS = [0.0, 10.0, 20.0, 30.0], [0.0, 0.25, 0.5, 0.75, 1.0]

# odp.t.make_quantiles_from_counts(EDGES, ALPHAS)(counts)
QUANTILES = [
    ([1.0, 2.0, 3.0], [0.0, 12.5, 20.0, 25.0, 30.0]),
    ([0.0, 1.0, 2.0, 3.0, 0.0], [0.0, 12.5, 20.0, 25.0, 30.0]),
    ([5.0, 0.0, 5.0], [0.0, 5.0, 10.0, 25.0, 30.0]),
    ([-1.0, 2.0, 3.0], [15.0, 20.0, 23.333333333333336, 26.666666666666668, 30.0]),
]


@pytest.mark.parametrize("counts, expected", QUANTILES)
def test_quantiles_match_opendp(counts, expected):
    assert dp.t.make_quantiles_from_counts(EDGES, ALPHAS)(counts) == expected


def test_quantiles_of_zero_counts_are_nan():
    # odp.t.make_quantiles_from_counts(EDGES, ALPHAS)([0.0, 0.0, 0.0]) == [nan] * 5
    out = dp.t.make_quantiles_from_counts(EDGES, ALPHAS)([0.0, 0.0, 0.0])
    assert len(out) == 5 and all(math.isnan(v) for v in out)


def test_quantiles_match_opendp_nearest_integers_and_unsorted_cdf():
    q = dp.t.make_quantiles_from_counts
    # odp.t.make_quantiles_from_counts(EDGES, ALPHAS, interpolation="nearest")([1., 2., 3.])
    assert q(EDGES, ALPHAS, interpolation="nearest")([1.0, 2.0, 3.0]) == [
        0.0,
        10.0,
        20.0,
        20.0,
        30.0,
    ]
    # odp.t.make_quantiles_from_counts([0, 10, 20, 30], ALPHAS)([1, 2, 3]) (and "nearest")
    assert q([0, 10, 20, 30], ALPHAS)([1, 2, 3]) == [0, 12, 20, 25, 30]
    assert q([0, 10, 20, 30], ALPHAS, interpolation="nearest")([1, 2, 3]) == [0, 10, 20, 20, 30]
    # odp.t.make_quantiles_from_counts([0, 10, 20, 30], [0.1, 0.26, 0.5, 0.9])([1, 2, 3]):
    # an integer quantile is truncated toward zero
    assert q([0, 10, 20, 30], [0.1, 0.26, 0.5, 0.9])([1, 2, 3]) == [6, 12, 20, 28]
    assert q([-30, -20, -10, 0], [0.1, 0.26, 0.5, 0.9])([1, 2, 3]) == [-24, -17, -10, -1]
    # odp.t.make_quantiles_from_counts([0., 10., 20., 30., 40.], [.2, .5, .9])([5., -4., 1., 3.])
    assert q([0.0, 10.0, 20.0, 30.0, 40.0], [0.2, 0.5, 0.9])([5.0, -4.0, 1.0, 3.0]) == [
        2.0,
        31.666666666666664,
        38.333333333333336,
    ]
    # odp.t.make_quantiles_from_counts([0., 1.], [])([3.]) == []
    assert q([0.0, 1.0], [])([3.0]) == []
    assert q([5.0], [0.2, 0.7])([]) == [5.0, 5.0]


def test_integer_quantiles_refuse_nan_and_overflow():
    q = dp.t.make_quantiles_from_counts
    # OpenDP: FailedCast for odp.t.make_quantiles_from_counts([0, 10, 20, 30], ...)([0, 0, 0])
    with pytest.raises(FailedFunctionError, match="not a i32"):
        q([0, 10, 20, 30], [0.1, 0.5])([0, 0, 0])
    with pytest.raises(FailedFunctionError, match="overflows i32"):
        q([0, 10, 20, 30], [0.5])([2**31 - 1, 1, 0])


@pytest.mark.parametrize(
    "edges, alphas, kwargs, rule",
    [
        ([], [0.5], {"TA": "f64"}, "bin_edges"),
        ([1.0, 1.0], [0.5], {}, "strictly increasing"),
        ([2.0, 1.0], [0.5], {}, "strictly increasing"),
        ([0.0, float("nan")], [0.5], {}, "NaN"),
        ([0.0, 1.0], [0.5, 0.5], {}, "strictly increasing"),
        ([0.0, 1.0], [0.6, 0.5], {}, "strictly increasing"),
        ([0.0, 1.0], [-0.1], {}, r"\[0, 1\]"),
        ([0.0, 1.0], [-0.0], {}, r"\[0, 1\]"),
        ([0.0, 1.0], [1.1], {}, r"\[0, 1\]"),
        ([0.0, 1.0], [float("nan")], {}, "NaN"),
        ([0.0, 1.0], [1], {}, "alphas"),
        ([0.0, 1.0], [0.5], {"interpolation": "foo"}, "interpolation"),
        ([0.0, 1.0], [0.5], {"TA": "i32"}, "bin_edges"),
        ([0.0, 1.0], [0.5], {"F": "i32"}, "F"),
        ([0.0, 1.0], [0.5], {"TA": "bool"}, "TA"),
    ],
)
def test_quantiles_refuse_bad_arguments(edges, alphas, kwargs, rule):
    with pytest.raises(MakeTransformationError, match=rule):
        dp.t.make_quantiles_from_counts(edges, alphas, **kwargs)


@pytest.mark.parametrize("counts", [[1.0, 1.0], [1.0] * 6, [float("nan"), 1.0, 1.0], [1, 2, 3]])
def test_quantiles_refuse_bad_counts(counts):
    # OpenDP: FailedFunction("there must be one more bin edge than there are counts")
    with pytest.raises(FailedFunctionError, match="arg"):
        dp.t.make_quantiles_from_counts(EDGES, ALPHAS)(counts)


def test_postprocessors_release_through_a_measurement():
    dp.enable_features("contrib")
    laplace = dp.m.make_laplace(
        dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float), scale=1.0
    )
    chained = dp.c.make_chain_pm(dp.t.make_cdf(), laplace)
    out = chained([10.0, 20.0, 30.0])
    assert len(out) == 3 and out[-1] == 1.0 and chained.map(1.0) == laplace.map(1.0)
    assert len((laplace >> dp.t.make_cdf())([5.0, 5.0])) == 2
