"""make_cdf's output (f64 and f32) against its exact-rational postcondition,
make_quantiles_from_counts's (nearest) against its quantile-set postcondition (postconditions.py),
on random inputs, and the checks' power: a wrong output fails them (the referee ref-tree's
counterexamples among them)."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import certdp.prelude as dp
from certdp.transformations._postprocess.postconditions import (
    cdf_expected,
    cdf_postcondition,
    consistent_tree_postcondition,
    nearest_quantiles_postcondition,
    round_to_format,
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


@given(COUNTS)
def test_f32_cdf_meets_its_exact_postcondition(x):
    assert cdf_postcondition(x, dp.t.make_cdf(TA="f32")(x), TA="f32")


@given(st.floats(allow_nan=False))
def test_binary32_rounding_agrees_with_numpy(value):
    with np.errstate(over="ignore"):
        expected = float(np.float32(value))
    if math.isinf(expected):
        with pytest.raises(OverflowError):
            round_to_format(Fraction(value), "f32")
    else:
        assert float(round_to_format(Fraction(value), "f32")) == expected


def test_the_f32_check_sees_the_f64_answer():
    x = [0.1, 0.2, 0.3]
    assert dp.t.make_cdf(TA="f32")(x) != dp.t.make_cdf()(x)
    assert not cdf_postcondition(x, dp.t.make_cdf()(x), TA="f32")


def test_cdf_postcondition_nan_input_is_a_bool():
    """Referee ref-tree test 4: a NaN in x gave an untyped ValueError; now False."""
    assert cdf_postcondition([float("nan"), 1.0], [0.0, 1.0]) in (True, False)
    assert cdf_postcondition([float("nan"), 1.0], [0.0, 1.0]) is False


def test_cdf_postcondition_accepts_correct_f32_output():
    """Referee ref-tree test 5: a correct make_cdf(TA="f32") output was rejected (no TA)."""
    x = [0.1, 0.2, 0.3]
    assert cdf_postcondition(x, dp.t.make_cdf(TA="f32")(x), TA="f32")


EDGES = st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=8, unique=True)
ALPHAS = st.lists(st.floats(0.0, 1.0), min_size=1, max_size=6, unique=True)


@given(EDGES, st.lists(st.integers(0, 10**4), min_size=1, max_size=9), ALPHAS, st.booleans())
def test_nearest_quantiles_meet_their_postcondition(edges, counts, alphas, as_float):
    edges = sorted(edges)
    counts = (counts * len(edges))[: len(edges) - 1]
    if as_float:  # TA = f64, as the edges
        counts = [float(c) for c in counts]
    else:  # TA = i32 counts over integer edges
        edges = sorted({int(e) for e in edges})
        assume(len(edges) >= 2)
        counts = counts[: len(edges) - 1]
    alphas = sorted({a + 0.0 for a in alphas})  # -0.0 is refused, as in OpenDP
    assume(sum(counts) > 0)
    release = dp.t.make_quantiles_from_counts(edges, alphas, interpolation="nearest")
    assert nearest_quantiles_postcondition(edges, counts, alphas, release(counts))


@given(
    EDGES,
    st.lists(st.floats(0.0, 1e6, allow_nan=False), min_size=1, max_size=9),
    ALPHAS,
    st.sampled_from(["f32", "f64"]),
    st.sampled_from(["f32", "f64"]),
)
def test_nearest_quantiles_of_float_counts_in_both_formats(edges, counts, alphas, TA, F):
    edges = sorted(float(np.float32(e)) for e in edges) if TA == "f32" else sorted(edges)
    assume(all(a < b for a, b in zip(edges, edges[1:])))
    counts = (counts * len(edges))[: len(edges) - 1]
    if TA == "f32":
        counts = [float(np.float32(c)) for c in counts]
    alphas = sorted({float(np.float32(a)) if F == "f32" else a + 0.0 for a in alphas})
    assume(sum(counts) > 0)
    release = dp.t.make_quantiles_from_counts(edges, alphas, "nearest", TA=TA, F=F)
    assert nearest_quantiles_postcondition(edges, counts, alphas, release(counts), TA=TA, F=F)


@given(EDGES, st.lists(st.integers(-(10**4), 10**4), min_size=1, max_size=9), ALPHAS)
def test_nearest_quantiles_of_signed_counts_are_ordered_edges(edges, counts, alphas):
    """Noisy counts may be negative: the promise then is edges, one per alpha, in order."""
    edges = sorted(edges)
    counts = [float(c) for c in (counts * len(edges))[: len(edges) - 1]]
    alphas = sorted({a + 0.0 for a in alphas})
    release = dp.t.make_quantiles_from_counts(edges, alphas, interpolation="nearest")
    try:
        out = release(counts)
    except dp.OpenDPException:  # an alpha beyond a cdf that does not reach it: refused
        return
    assert nearest_quantiles_postcondition(edges, counts, alphas, out)


def test_the_quantile_check_sees_a_wrong_output():
    edges, alphas = [0.0, 1.0, 2.0], [0.1, 0.9]  # cdf [0.5, 1]: nearest edges 0 and 2
    assert nearest_quantiles_postcondition(edges, [1, 1], alphas, [0.0, 2.0])
    assert not nearest_quantiles_postcondition(edges, [1, 1], alphas, [2.0, 0.0])
    assert not nearest_quantiles_postcondition(edges, [1, 1], alphas, [0.5, 2.0])
    assert not nearest_quantiles_postcondition(edges, [1, 1], alphas, [0.0, 1.0])
    assert not nearest_quantiles_postcondition(edges, [1, 1], alphas, [0.0])
    # at a tie (alpha 0.75 halfway between 0.5 and 1) both edges 1 and 2 are nearest
    assert nearest_quantiles_postcondition(edges, [1, 1], [0.75], [1.0])
    assert nearest_quantiles_postcondition(edges, [1, 1], [0.75], [2.0])


def test_nearest_quantile_postcondition_rejects_a_wrong_answer():
    """Referee ref-tree test 2: all the mass in the bin [1, 2], so every quantile's nearest
    edge is 1 or 2; the constant answer [0, 0] passed when the check took no alphas."""
    assert not nearest_quantiles_postcondition([0.0, 1.0, 2.0], [0, 10], [0.25, 0.75], [0.0, 0.0])
    assert nearest_quantiles_postcondition([0.0, 1.0, 2.0], [0, 10], [0.25, 0.75], [1.0, 2.0])


def test_nearest_quantile_postcondition_applies_to_noisy_counts():
    """Referee ref-tree test 3: one negative count skipped the whole check, so a non-edge
    output passed; now edges and order are checked on any counts."""
    assert not nearest_quantiles_postcondition([0.0, 1.0, 2.0], [-1, 10], [0.5], [123.0])
    assert not nearest_quantiles_postcondition([0.0, 1.0, 2.0], [-1, 10], [0.2, 0.8], [2.0, 1.0])
    assert nearest_quantiles_postcondition([0.0, 1.0, 2.0], [-1, 10], [0.2, 0.8], [1.0, 2.0])


@given(
    st.lists(st.integers(0, 10**6), min_size=2, max_size=9),
    st.sampled_from(["f32", "f64"]),
    st.booleans(),
)
def test_nearest_quantiles_at_the_cdf_steps_and_midpoints(counts, F, as_float):
    """Alphas on the rounded cdf values and halfway between them, where rounding decides."""
    assume(sum(counts) > 0)
    edges = list(range(len(counts) + 1))
    if as_float:
        counts, edges = [float(c) for c in counts], [float(e) for e in edges]
    cdf = dp.t.make_cdf(TA=F)([float(c) for c in counts])
    steps = cdf + [(a + b) / 2 for a, b in zip([0.0] + cdf, cdf)]
    alphas = sorted({float(np.float32(a)) if F == "f32" else a for a in steps if 0 <= a <= 1})
    release = dp.t.make_quantiles_from_counts(edges, alphas, "nearest", F=F)
    TA = "f64" if as_float else None
    assert nearest_quantiles_postcondition(edges, counts, alphas, release(counts), TA=TA, F=F)


# -- make_consistent_b_ary_tree ------------------------------------------------------------------

TREE_VALUES = st.one_of(st.integers(-1000, 1000), st.integers(-(2**63), 2**63 - 1))


@given(st.integers(2, 4), st.lists(TREE_VALUES, min_size=1, max_size=40), st.booleans())
def test_consistent_tree_meets_its_postcondition(b, tree, f32):
    TOA = "f32" if f32 else "f64"
    out = dp.t.make_consistent_b_ary_tree(b, TIA="i64", TOA=TOA)(tree)
    assert consistent_tree_postcondition(tree, b, out, TOA)


def _edited_tree_constructor(old: str, new: str):
    """make_consistent_b_ary_tree from a copy of its module with ``old`` replaced by ``new``."""
    import importlib
    import importlib.util
    import types

    module = importlib.import_module(
        "certdp.transformations.consistent_b_ary_tree.make_consistent_b_ary_tree"
    )

    source = importlib.util.find_spec(module.__name__).loader.get_source(module.__name__)
    assert source.count(old) == 1
    edited = types.ModuleType("edited_consistent_b_ary_tree")
    edited.__package__ = module.__package__
    exec(compile(source.replace(old, new), "<edited>", "exec"), edited.__dict__)
    return edited.make_consistent_b_ary_tree


TREE = [10, 4, 3, 2, 2, 1, 1]


def test_a_tree_without_the_top_down_pass_is_refuted():
    # skip every correction: the leaves are the noisy ones, not the consistent ones
    skipped = _edited_tree_constructor("if correction == 0:", "if True:")
    out = skipped(2)(TREE)
    assert out == [2.0, 2.0, 1.0, 1.0]
    assert not consistent_tree_postcondition(TREE, 2, out)
    assert consistent_tree_postcondition(TREE, 2, dp.t.make_consistent_b_ary_tree(2)(TREE))


def test_a_tree_with_another_weighting_or_a_lost_leaf_is_refuted():
    # weigh the parent and its children's sum equally: consistent, but not least squares
    halves = _edited_tree_constructor("alpha = alpha * var[i]", "alpha = F(0.5)")
    assert not consistent_tree_postcondition(TREE, 2, halves(2)(TREE))
    # return one leaf too few
    short = _edited_tree_constructor("top[leaves : size - zeros]", "top[leaves : size - zeros - 1]")
    assert not consistent_tree_postcondition(TREE, 2, short(2)(TREE))
    out = dp.t.make_consistent_b_ary_tree(2)(TREE)
    assert not consistent_tree_postcondition(TREE, 2, [out[0] + 2**-51, *out[1:]])
    # the f64 answer is not the f32 one
    assert not consistent_tree_postcondition(TREE, 2, out, "f32")


def test_the_tree_replay_gives_ieee_specials():
    # a zero variance divides: 1 / 0 is infinity, 0 / 0 is NaN, as in IEEE
    from certdp.transformations._postprocess.postconditions import _operation

    one, zero = Fraction(1), Fraction(0)
    assert _operation("/", one, zero, "f64") == math.inf
    assert math.isnan(_operation("/", zero, zero, "f64"))
    assert _operation("/", one, math.inf, "f64") == 0
    assert _operation("*", Fraction(2) ** 1000, Fraction(2) ** 100, "f64") == math.inf
    assert _operation("+", Fraction(2) ** 127, Fraction(2) ** 127, "f32") == math.inf
